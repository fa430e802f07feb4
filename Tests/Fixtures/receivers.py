#!/usr/bin/env python3
"""Receivers on 127.0.0.1 for the delivery tests (SPEC section 24).

  receivers.py http LOG [FAILURES [DELAY]]
                                    an HTTP receiver: answers 503 to the first FAILURES POSTs,
                                    then 200, each after DELAY seconds; appends each POST to LOG
                                    as a JSON line {"status","headers","body"} when it arrives
  receivers.py smtp LOG             an SMTP server (aiosmtpd, no TLS): appends each message to
                                    LOG as a JSON line {"from","to","data"} (data in base64)

Each prints its port on the first line of standard output once it listens, and runs until
killed.
"""
import base64
import json
import sys
import threading
import time


def serve_http(log, failures, delay):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    lock = threading.Lock()
    seen = [0]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                seen[0] += 1
                status = 503 if seen[0] <= failures else 200
                with open(log, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"status": status, "headers": dict(self.headers),
                                          "body": body.decode("utf-8")}) + "\n")
            time.sleep(delay)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


def serve_smtp(log):
    import socket
    from aiosmtpd.controller import Controller

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps({"from": envelope.mail_from, "to": envelope.rcpt_tos,
                                      "data": base64.b64encode(envelope.original_content).decode()}) + "\n")
            return "250 OK"

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    print(port, flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    if sys.argv[1] == "http":
        serve_http(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0,
                   float(sys.argv[4]) if len(sys.argv) > 4 else 0)
    else:
        serve_smtp(sys.argv[2])
