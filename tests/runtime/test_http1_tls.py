"""fastapply.runtime.http1 over real TLS: the simulated upstream served by uvicorn with a certificate
from a test CA. The client verifies it with the system's trust store (here: SSL_CERT_FILE pointing at
the test CA, as an operator's private CA would be configured), and refuses it without the CA."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
from pathlib import Path

import msgspec
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from evals.sim_upstream import MODEL_ID, ThreadServer, create_sim_app
from fastapply.runtime.http1 import ConnectError, Http1Pool

BODY = msgspec.json.encode({"model": MODEL_ID, "stream": True, "messages": [
    {"role": "user", "content": "<code>\na = 1\n</code>\n<update>\na = 2\n</update>"}]})


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """(CA certificate, server certificate, server key) for 127.0.0.1, written under `folder`."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(_name("fastapply test CA")).issuer_name(_name("fastapply test CA"))
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    server = (x509.CertificateBuilder().subject_name(_name("127.0.0.1")).issuer_name(ca.subject)
              .public_key(key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
              .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                          x509.DNSName("localhost")]), critical=False)
              .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
              .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
              .sign(ca_key, hashes.SHA256()))
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(server.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


@pytest.fixture(scope="module")
def tls_sim(tmp_path_factory: pytest.TempPathFactory):
    ca, cert, key = _certificates(tmp_path_factory.mktemp("tls"))
    with ThreadServer(create_sim_app(), tls=(str(cert), str(key))) as server:
        yield server, ca


async def _stream(url: str) -> tuple[bytes, int]:
    pool = Http1Pool(max_connections=2)
    try:
        body = b""
        for _ in range(2):
            response = await pool.request("POST", url + "/v1/chat/completions", BODY,
                                          {"content-type": "application/json"})
            assert response.status_code == 200
            body = b"".join([piece async for piece in response.chunks()])
            await response.aclose()
        return body, pool._open
    finally:
        await pool.aclose()


def test_a_stream_over_tls_verified_by_the_trust_store(tls_sim, monkeypatch: pytest.MonkeyPatch) -> None:
    server, ca = tls_sim
    assert server.url.startswith("https://")
    monkeypatch.setenv("SSL_CERT_FILE", str(ca))
    body, opened = asyncio.run(_stream(server.url))
    assert body.decode().endswith("data: [DONE]\n\n")
    assert opened == 1  # the TLS connection was kept alive for the second request


def test_a_certificate_the_trust_store_does_not_know_is_refused(tls_sim, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    server, _ = tls_sim
    other_ca, _, _ = _certificates(tmp_path)  # a trust store that holds some other CA only
    monkeypatch.setenv("SSL_CERT_FILE", str(other_ca))
    with pytest.raises(ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        asyncio.run(_stream(server.url))
