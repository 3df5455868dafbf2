"""TLS for black-box tests: a certificate authority made by the test, and ``tessera serve`` over it."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tests.support.live_server import start_tessera, stop


@dataclass(frozen=True)
class Certificates:
    """A CA's certificate, and a server certificate for 127.0.0.1 and localhost it signed, with its key."""

    ca: Path
    cert: Path
    key: Path

    def client_context(self) -> ssl.SSLContext:
        """What a client that trusts only this CA verifies the server with (hostname checked)."""
        return ssl.create_default_context(cafile=str(self.ca))


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def make_certificates(directory: Path, label: str = "Tessera test CA") -> Certificates:
    """A fresh CA (P-256) and a server certificate it issued, valid for a day, written as PEM files."""
    directory.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name(label)
    ca_cert = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                     crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder().subject_name(_name("127.0.0.1")).issuer_name(ca_name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                    x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    files = Certificates(directory / "ca.pem", directory / "server.pem", directory / "server.key")
    files.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    files.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    files.key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    files.key.chmod(0o600)
    return files


@dataclass
class Served:
    """A running ``tessera serve``: its base URL, and its output so far."""

    base: str
    _log: Any

    def output(self) -> str:
        # pread: the server shares the file's offset, so a seek here would move where it writes next.
        fd = self._log.fileno()
        return os.pread(fd, os.fstat(fd).st_size, 0).decode(errors="replace")

    def access_lines(self) -> list[dict[str, Any]]:
        """The JSON access-log entries the process has written (one per request)."""
        entries = []
        for line in self.output().splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and entry.get("logger") == "tessera.access":
                entries.append(entry)
        return entries

    def access_line(self, request_id: str, seconds: float = 5.0) -> dict[str, Any]:
        """The access-log entry of one request. The server writes it after the answer is sent, so a
        client that reads the log at once can be ahead of it: wait for it, briefly."""
        deadline = time.monotonic() + seconds
        while True:
            found = [e for e in self.access_lines() if e.get("requestId") == request_id]
            if found:
                return found[0]
            assert time.monotonic() < deadline, f"no access-log line for request {request_id} within {seconds} s"
            time.sleep(0.05)


@contextmanager
def serving(env: dict[str, str], *args: str, scheme: str = "http", verify: ssl.SSLContext | bool = True,
            startup_seconds: float = 60) -> Iterator[Served]:
    """``tessera serve *args`` on a free loopback port, ready once it has bound the port and
    ``/api/health`` answers 200 over ``scheme`` (verified with ``verify``); fails the test on any 5xx
    in its access log."""
    proc, log, base = start_tessera(["serve", *args], env, scheme=scheme, verify=verify,
                                    startup_seconds=startup_seconds)
    try:
        served = Served(base, log)
        yield served
        errors = [f"{e.get('method')} {e.get('path')} -> {e['status']}" for e in served.access_lines()
                  if isinstance(e.get("status"), int) and e["status"] >= 500]
        assert not errors, f"tessera serve answered 5xx no test expected: {errors[:5]}"
    finally:
        stop(proc)
        log.close()
