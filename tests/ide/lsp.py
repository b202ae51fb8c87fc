"""A minimal Language Server Protocol client over stdio (standard library
only), enough to drive clangd the way an editor does: requests, replies,
notifications, and waiting for textDocument/publishDiagnostics."""
import json
import queue
import subprocess
import threading
import time
import urllib.parse
import urllib.request


def file_uri(path):
    return "file://" + urllib.parse.quote(path)


class LSPError(Exception):
    pass


class Client:
    def __init__(self, argv, cwd, stderr):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.inbox = queue.Queue()
        self.next_id = 1
        # Latest publishDiagnostics per URI, and every one received.
        self.diagnostics = {}
        self.published = []
        threading.Thread(target=self._read, daemon=True).start()

    # -- wire format: Content-Length header, blank line, JSON body.
    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            self.inbox.put(json.loads(out.read(length)))

    def _send(self, msg):
        msg["jsonrpc"] = "2.0"
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self._send({"method": method, "params": params})

    def _dispatch(self, msg):
        """Handles a message that is not the reply being waited for."""
        if msg.get("method") == "textDocument/publishDiagnostics":
            p = msg["params"]
            self.diagnostics[p["uri"]] = p["diagnostics"]
            self.published.append(p)
        elif "method" in msg and "id" in msg:
            # A request from the server (workspace/configuration, ...).
            self._send({"id": msg["id"], "result": None})

    def _next(self, deadline):
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise LSPError("timed out")
        try:
            msg = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise LSPError("timed out")
        if msg is None:
            raise LSPError("the server closed its output (exit code %s)"
                           % self.proc.wait())
        return msg

    def request(self, method, params, timeout=60):
        rid = self.next_id
        self.next_id += 1
        self._send({"id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            msg = self._next(deadline)
            if msg.get("id") == rid and "method" not in msg:
                if "error" in msg:
                    raise LSPError("%s failed: %s" % (method, msg["error"]))
                return msg.get("result")
            self._dispatch(msg)

    def wait_diagnostics(self, uri, accept, timeout=120):
        """Waits until the latest diagnostics published for uri satisfy
        accept(list); returns them."""
        deadline = time.monotonic() + timeout
        while True:
            if uri in self.diagnostics and accept(self.diagnostics[uri]):
                return self.diagnostics[uri]
            try:
                self._dispatch(self._next(deadline))
            except LSPError as e:
                raise LSPError("%s waiting for diagnostics of %s (last: %s)"
                               % (e, uri, json.dumps(self.diagnostics.get(uri))))

    def initialize(self, root):
        result = self.request("initialize", {
            "processId": None,
            "rootUri": file_uri(root),
            "workspaceFolders": [{"uri": file_uri(root), "name": "ws"}],
            "capabilities": {"textDocument": {"publishDiagnostics": {
                "relatedInformation": True, "codeDescriptionSupport": True}}},
        })
        self.notify("initialized", {})
        return result

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": file_uri(path), "languageId": "c", "version": version,
            "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": file_uri(path), "version": version},
            "contentChanges": [{"text": text}]})

    def shutdown(self, timeout=30):
        self.request("shutdown", None, timeout)
        self.notify("exit", None)
        return self.proc.wait(timeout)
