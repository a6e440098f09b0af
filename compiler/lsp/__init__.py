"""The language server for quest packs (`questc lsp`): engine.py knows, server.py speaks LSP."""
