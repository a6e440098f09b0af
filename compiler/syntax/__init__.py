"""The quest language: grammar, parser (the only place Lark trees exist), AST, formatter."""
