"""The language server for quest packs (`questc lsp`, commands/lsp.py starts it), part of the
commands layer: engine.py knows, server.py speaks LSP."""
