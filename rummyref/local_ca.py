"""This machine's own certificate authority, for HTTPS on the LAN (``make run HTTPS=1``).

Browsers register a service worker (a table reopened offline, the app installed on the home
screen) only on localhost or over HTTPS with a certificate they trust, and a phone at the
table reaches a local run by this machine's LAN address. So, as mkcert does, the first run
makes a root certificate authority kept inside the project (``.local-ca/``, git-ignored),
which each phone installs once; every run then makes sure of a server certificate signed by
it that names this machine's addresses and names, made again when they change (a new Wi-Fi)
or as it nears its end. The authority's private key never leaves that folder: the app serves
its certificate alone (games/pages/app_shell.py), and gunicorn reads only the server's key.

Keys are ECDSA P-256 (Android 7+ and iOS take them as CA and server keys). The server
certificate lives 820 days: iOS refuses a TLS certificate valid for more than 825 days,
whoever issued it.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import getpass
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from rummyref.lan import machine_hostnames

CA_CERT = "rootCA.pem"
CA_KEY = "rootCA-key.pem"
SERVER_CERT = "server.pem"
SERVER_KEY = "server-key.pem"
CA_DAYS = 10 * 365
SERVER_DAYS = 820
# A certificate this close to its end is made again at the next run.
RENEW_DAYS = 30
ORGANISATION = "RummyRef local run"


@dataclass(frozen=True)
class ServerCertificate:
    """Hold the server certificate in force: its files, its names, whether this run made it."""

    cert_path: Path
    key_path: Path
    names: tuple[str, ...]
    not_after: datetime.datetime
    issued: bool


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _write_private(path: Path, data: bytes) -> None:
    """Write a file only its owner reads (0600), replacing any, never readable on the way."""
    temporary = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    os.chmod(temporary, 0o600)  # whatever the umask
    os.replace(temporary, path)


def _write_public(path: Path, data: bytes) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _who() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "user"
    return f"{user}@{socket.gethostname()}"


def authority_certificate(folder: Path) -> x509.Certificate | None:
    """Return the authority's certificate (its public part), or None if none was made."""
    try:
        return x509.load_pem_x509_certificate((folder / CA_CERT).read_bytes())
    except (FileNotFoundError, ValueError):
        return None


def ensure_authority(folder: Path) -> tuple[x509.Certificate, bool]:
    """Return the authority's certificate, making the authority first if there is none.

    An authority is made once: a phone that installed it keeps trusting every later run. A
    certificate without its key (or the other way round) is an authority half lost, and is
    refused rather than silently replaced under the phones that trust it.
    """
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    cert_path, key_path = folder / CA_CERT, folder / CA_KEY
    if cert_path.exists() or key_path.exists():
        if not (cert_path.exists() and key_path.exists()):
            raise RuntimeError(
                f"{folder} holds half a certificate authority ({CA_CERT} and {CA_KEY} go "
                "together): remove the folder to make a new one, then install it on the phones."
            )
        os.chmod(key_path, 0o600)
        return x509.load_pem_x509_certificate(cert_path.read_bytes()), False
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, _who()),
            x509.NameAttribute(NameOID.COMMON_NAME, f"RummyRef local CA {socket.gethostname()}"),
        ]
    )
    now = _now()
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_private(key_path, _pem_key(key))
    _write_public(cert_path, certificate.public_bytes(serialization.Encoding.PEM))
    return certificate, True


def machine_names(addresses: list[str], extra: list[str] | None = None) -> list[str]:
    """Return the names a server certificate for this machine carries, in a stable order:
    localhost, the hostname and its mDNS name (hostname.local), ``extra``, the loopback
    addresses and ``addresses`` (its LAN addresses)."""
    names = ["localhost", *machine_hostnames(), *(extra or ())]
    names += ["127.0.0.1", "::1", *addresses]
    return list(dict.fromkeys(names))


def _general_name(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def certificate_names(certificate: x509.Certificate) -> tuple[str, ...]:
    """Return the DNS names and addresses a certificate's SubjectAlternativeName carries."""
    try:
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return ()
    dns = names.get_values_for_type(x509.DNSName)
    ips = [str(address) for address in names.get_values_for_type(x509.IPAddress)]
    return (*dns, *ips)


def _signed_by(certificate: x509.Certificate, authority: x509.Certificate) -> bool:
    if certificate.issuer != authority.subject:
        return False
    try:
        certificate.verify_directly_issued_by(authority)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def _still_good(folder: Path, authority: x509.Certificate, names: list[str]) -> bool:
    """Tell whether the server certificate on disk can serve this run as it is."""
    try:
        certificate = x509.load_pem_x509_certificate((folder / SERVER_CERT).read_bytes())
        key = serialization.load_pem_private_key((folder / SERVER_KEY).read_bytes(), None)
    except (FileNotFoundError, ValueError, TypeError):
        return False
    same_key = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    ) == spki_der(certificate)
    fresh = certificate.not_valid_after_utc - _now() > datetime.timedelta(days=RENEW_DAYS)
    named = set(certificate_names(certificate)) == set(names)
    return same_key and fresh and named and _signed_by(certificate, authority)


def ensure_server_certificate(folder: Path, names: list[str]) -> ServerCertificate:
    """Return the server certificate for ``names``, signed by the authority in ``folder``;
    make it (and its key) again unless the one there names exactly them, is signed by this
    authority and has more than RENEW_DAYS to run."""
    authority, _made = ensure_authority(folder)
    cert_path, key_path = folder / SERVER_CERT, folder / SERVER_KEY
    issued = not _still_good(folder, authority, names)
    if issued:
        authority_key = serialization.load_pem_private_key((folder / CA_KEY).read_bytes(), None)
        assert isinstance(authority_key, ec.EllipticCurvePrivateKey)
        key = ec.generate_private_key(ec.SECP256R1())
        now = _now()
        certificate = (
            x509.CertificateBuilder()
            .subject_name(
                x509.Name(
                    [
                        x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION),
                        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, _who()),
                        x509.NameAttribute(NameOID.COMMON_NAME, names[0]),
                    ]
                )
            )
            .issuer_name(authority.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=False,
                    crl_sign=False,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.SubjectAlternativeName([_general_name(name) for name in names]),
                critical=False,
            )
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(authority.public_key()),
                critical=False,
            )
            .sign(authority_key, hashes.SHA256())
        )
        _write_private(key_path, _pem_key(key))
        _write_public(cert_path, certificate.public_bytes(serialization.Encoding.PEM))
    else:
        os.chmod(key_path, 0o600)
        certificate = x509.load_pem_x509_certificate(cert_path.read_bytes())
    return ServerCertificate(
        cert_path=cert_path,
        key_path=key_path,
        names=certificate_names(certificate),
        not_after=certificate.not_valid_after_utc,
        issued=issued,
    )


def spki_der(certificate: x509.Certificate) -> bytes:
    return certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def spki_sha256(certificate: x509.Certificate) -> str:
    """Return the base64 SHA-256 of a certificate's SubjectPublicKeyInfo (the form Chromium's
    --ignore-certificate-errors-spki-list and HTTP key pinning take)."""
    digest = hashes.Hash(hashes.SHA256())
    digest.update(spki_der(certificate))
    return base64.b64encode(digest.finalize()).decode()
