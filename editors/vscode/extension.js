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
  // The map preview: the server draws the map under the cursor to a PNG and draws it
  // again after every save of the pack (questc/previewUpdated); VS Code's image viewer
  // reloads the file when it changes.
  context.subscriptions.push(vscode.commands.registerCommand("questc.showMapPreview", async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return;
    try {
      const got = await client.sendRequest("workspace/executeCommand", {
        command: "questc.previewMap",
        arguments: [editor.document.uri.toString(), editor.selection.active],
      });
      await vscode.commands.executeCommand("vscode.open", vscode.Uri.parse(got.uri),
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
    } catch (err) {
      vscode.window.showWarningMessage(`questc: ${err.message || err}`);
    }
  }));
  return client.start().then(() => {
    client.onNotification("questc/previewUpdated", (params) => {
      if (params.stale) vscode.window.setStatusBarMessage(`questc: ${params.map}: ${params.stale}`, 5000);
    });
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
