"""Run a stdio server and copy every byte the client sends it into a journal file: the wire, as sent.

    python tests/apps/wire_tee.py JOURNAL COMMAND [ARGS...]

The server's stdout and stderr are its own (inherited); only stdin passes through this process, each
chunk written to JOURNAL (flushed at once) before the server gets it. When the client closes stdin, the
server's stdin is closed too and this process exits with the server's status.
"""

import os
import subprocess
import sys


def main() -> int:
    journal_path, *command = sys.argv[1:]
    server = subprocess.Popen(command, stdin=subprocess.PIPE)
    assert server.stdin is not None
    with open(journal_path, "ab") as journal:
        while chunk := os.read(sys.stdin.fileno(), 65536):
            journal.write(chunk)
            journal.flush()
            try:
                server.stdin.write(chunk)
                server.stdin.flush()
            except BrokenPipeError:
                break
    server.stdin.close()
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
