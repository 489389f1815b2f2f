"""A throwaway PostgreSQL server for tests and benchmarks: ``initdb`` + ``pg_ctl`` in a temp folder,
listening on 127.0.0.1 on a free port, stopped (and its folder removed) at the end.

``initdb`` refuses to run as root: as root, the server runs as the ``postgres`` user (``runuser``).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def bin_dir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` live (Debian: /usr/lib/postgresql/<n>/bin), or None."""
    env = os.environ.get("LUDIBOT_PG_BIN")
    candidates = [env] if env else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]),
                         reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    for c in candidates:
        if c and (Path(c) / "initdb").exists() and (Path(c) / "pg_ctl").exists():
            return Path(c)
    return None


def missing_reason() -> str | None:
    """Why PostgreSQL tests cannot run here (None: they can)."""
    if bin_dir() is None:
        return "no PostgreSQL binaries (initdb/pg_ctl) on this machine: apt-get install postgresql"
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _uid("postgres") is None):
        return "running as root without a 'postgres' user to run initdb as"
    return None


def _uid(name: str) -> int | None:
    import pwd

    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    def __init__(self) -> None:
        self.bin = bin_dir()
        if self.bin is None:
            raise RuntimeError(missing_reason())
        self.dir = Path(tempfile.mkdtemp(prefix="ludibot-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.dir)

    def start(self) -> PgServer:
        if self.as_root:
            os.chown(self.dir, _uid("postgres"), -1)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "-t", "60",
                  "start")
        return self

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def new_database(self, prefix: str = "t") -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        # CREATE DATABASE cannot run in a transaction: autocommit
        async with await psycopg.AsyncConnection.connect(self.url(), autocommit=True) as con:
            await con.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def new_database_sync(self, prefix: str = "t") -> str:
        """The same, from code that is not async (``createdb``)."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        subprocess.run([str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                        "-T", "template0", name], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return self.url(name)


class RoundTripProxy:
    """A TCP relay in front of the server that counts round trips as the protocol defines them: the
    client's messages after which it waits for the server to be ready again (``Sync`` of the extended
    protocol, a simple ``Query``). Pipelined statements end with one ``Sync``: they count once."""

    _SETUP = (80877103, 80877104)  # SSLRequest, GSSENCRequest: before the startup message

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = 0
        self.round_trips = 0
        self._server = None

    def url(self, url: str) -> str:
        """``url`` (a database of the proxied server) through the relay."""
        return url.replace(f":{self.target}/", f":{self.port}/")

    def _count(self, buf: bytearray, state: dict) -> None:
        """Consume the complete messages in ``buf`` (the client's stream), counting the waits."""
        while True:
            if not state["started"]:  # untyped: length, then the request code or protocol
                if len(buf) < 8:
                    return
                length = int.from_bytes(buf[:4], "big")
                if len(buf) < length:
                    return
                if int.from_bytes(buf[4:8], "big") not in self._SETUP:
                    state["started"] = True
                del buf[:length]
                continue
            if len(buf) < 5:
                return
            length = int.from_bytes(buf[1:5], "big")
            if len(buf) < 1 + length:
                return
            if buf[0] in (ord("S"), ord("Q")):
                self.round_trips += 1
            del buf[:1 + length]

    async def start(self) -> RoundTripProxy:
        import asyncio

        async def pipe(reader, writer, state: dict | None) -> None:
            buf = bytearray()
            try:
                while data := await reader.read(65536):
                    if state is not None:
                        buf += data
                        self._count(buf, state)
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        async def handle(c_reader, c_writer) -> None:
            s_reader, s_writer = await asyncio.open_connection("127.0.0.1", self.target)
            await asyncio.gather(pipe(c_reader, s_writer, {"started": False}), pipe(s_reader, c_writer, None))

        self._server = await asyncio.start_server(handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
