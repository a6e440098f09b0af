// Starts `questc lsp` for .quest files and the catalog YAML of packs (docs/editors.md).
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("questc");
  const args = ["lsp", "--debounce", String(config.get("debounce", 0.03))];
  for (const dir of config.get("packPath", [])) args.push("--pack-path", dir);
  const server = { command: config.get("path", "questc"), args, transport: TransportKind.stdio };
  client = new LanguageClient("questc", "questc", { run: server, debug: server }, {
    documentSelector: [
      { scheme: "file", language: "quest" },
      { scheme: "file", language: "yaml", pattern: "**/*.yaml" },
    ],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
