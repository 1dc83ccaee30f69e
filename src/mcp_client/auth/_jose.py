"""Keys and signed JWTs, through PyJWT and cryptography (the ``oauth-jwt`` extra), imported on first use.

Only the options that sign something need them: ``private_key=`` (``private_key_jwt`` client
authentication, RFC 7523 section 2.2) and ``dpop=`` (RFC 9449 proofs). ``import mcp_client`` and the
plain OAuth flows never import this module's libraries; a user who asks for one of these options
without the extra installed gets an ``OAuthError`` that names the ``pip install`` to run.

No JWS or JWK code is written here by hand: signing, JWK export and import are PyJWT's, key loading
and generation are cryptography's. This module only picks the algorithm that fits a key.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_client._errors import OAuthError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

EXTRA_HINT = "pip install 'mcp-elicit-client[oauth-jwt]'"

_EC_ALGORITHMS = {"secp256r1": "ES256", "secp384r1": "ES384", "secp521r1": "ES512"}
_RSA_ALGORITHMS = ("RS256", "PS256", "RS384", "PS384", "RS512", "PS512")


def require(feature: str) -> None:
    """``OAuthError`` naming the ``pip install`` when the libraries of the ``oauth-jwt`` extra are missing."""
    try:
        import cryptography  # noqa: F401  # pyright: ignore[reportUnusedImport]
        import jwt  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        raise OAuthError(
            f"{feature} needs PyJWT and cryptography, which are not installed; run: {EXTRA_HINT}"
        ) from None


def load_private_key(source: object, *, feature: str, password: bytes | None = None) -> Any:
    """A private key object from PEM text or bytes, a ``Path`` to a PEM file, a JWK dict, or a key object.

    A key file readable by anyone but its owner is refused, as ssh refuses one: a private key that
    others can read is no longer private.
    """
    require(feature)
    from cryptography.hazmat.primitives import serialization

    if isinstance(source, Path):
        source = read_key_file(source)
    if isinstance(source, Mapping):
        return key_from_jwk(source)  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(source, str):
        source = source.encode("utf-8")
    if isinstance(source, bytes):
        try:
            return serialization.load_pem_private_key(source, password=password)
        except (ValueError, TypeError) as exc:
            raise OAuthError(
                f"the private key for {feature} is not a readable PEM private key ({exc})"
            ) from None
    if _is_private_key(source):
        return source
    raise OAuthError(
        f"the private key for {feature} must be PEM text, a Path to a PEM file, a JWK dict or a "
        f"cryptography private key; got {type(source).__name__}"
    )


def read_key_file(path: Path) -> bytes:
    """The bytes of a private key file, refused if group or others may read it (chmod 600 fixes it)."""
    try:
        with open(path, "rb") as file:
            mode = os.fstat(file.fileno()).st_mode
            if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise OAuthError(
                    f"the private key file {path} can be read by others (mode {stat.S_IMODE(mode):o}); "
                    f"refusing to use it. Run: chmod 600 {path}"
                )
            return file.read(1024 * 1024)
    except OSError as exc:
        raise OAuthError(f"could not read the private key file {path}: {exc.strerror or exc}") from None


def _is_private_key(key: object) -> bool:
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

    private_types = (
        ec.EllipticCurvePrivateKey,
        rsa.RSAPrivateKey,
        ed25519.Ed25519PrivateKey,
        ed448.Ed448PrivateKey,
    )
    return isinstance(key, private_types)


def generate_dpop_key() -> Any:
    """A fresh P-256 key (ES256, the algorithm every DPoP server supports)."""
    require("DPoP")
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def algorithm_for(key: Any, allowed: tuple[str, ...] | None = None, chosen: str | None = None) -> str:
    """The JWS algorithm to sign with ``key``: ``chosen`` if given, else the first one of the server's
    ``allowed`` list that fits the key, else the key's natural one (ES256 for P-256, RS256 for RSA...).
    ``OAuthError`` when the server's list has nothing this key can make."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

    if isinstance(key, ec.EllipticCurvePrivateKey):
        fits: tuple[str, ...] = (_EC_ALGORITHMS.get(key.curve.name, ""),)
    elif isinstance(key, rsa.RSAPrivateKey):
        fits = _RSA_ALGORITHMS
    elif isinstance(key, ed25519.Ed25519PrivateKey):
        fits = ("EdDSA",)
    else:
        fits = ()
    fits = tuple(alg for alg in fits if alg)
    if chosen is not None:
        return chosen
    if not fits:
        raise OAuthError(f"no JWS algorithm is known for a {type(key).__name__}; pass algorithm=...")
    if allowed:
        for alg in allowed:
            if alg in fits:
                return alg
        raise OAuthError(
            f"the authorization server accepts signatures made with {', '.join(allowed[:8])}, and this "
            f"key can make {', '.join(fits)}; use a key of a type it accepts"
        )
    return fits[0]


def sign(claims: Mapping[str, Any], key: Any, algorithm: str, headers: Mapping[str, Any]) -> str:
    """A compact JWS of ``claims`` (PyJWT), with the extra protected ``headers`` (``typ``, ``jwk``...)."""
    import jwt

    return jwt.encode(dict(claims), key, algorithm=algorithm, headers=dict(headers))


def public_jwk(key: Any) -> dict[str, Any]:
    """The public half of ``key`` as a JWK (for the ``jwk`` header of a DPoP proof)."""
    return _jwk(key.public_key())


def private_jwk(key: Any) -> dict[str, Any]:
    """The whole key as a JWK, to be stored with the tokens it binds (the token file is 0600)."""
    return _jwk(key)


def _jwk(key: Any) -> dict[str, Any]:
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

    if isinstance(key, ec.EllipticCurvePrivateKey | ec.EllipticCurvePublicKey):
        return dict(ECAlgorithm.to_jwk(key, as_dict=True))
    if isinstance(key, rsa.RSAPrivateKey | rsa.RSAPublicKey):
        return dict(RSAAlgorithm.to_jwk(key, as_dict=True))
    if isinstance(key, ed25519.Ed25519PrivateKey | ed25519.Ed25519PublicKey):
        return dict(OKPAlgorithm.to_jwk(key, as_dict=True))
    raise OAuthError(f"cannot express a {type(key).__name__} as a JWK")


def key_from_jwk(jwk: Mapping[str, Any]) -> Any:
    """The private key a stored JWK holds (``OAuthError`` if it holds none)."""
    require("DPoP")
    import jwt

    try:
        key = jwt.PyJWK(dict(jwk)).key
    except (jwt.PyJWKError, ValueError, TypeError, KeyError) as exc:
        raise OAuthError(f"the stored DPoP key is not a usable JWK ({exc})") from None
    if not _is_private_key(key):
        raise OAuthError("the stored DPoP key holds no private key")
    return key


def pem_of(key: PrivateKeyTypes) -> bytes:
    """PKCS#8 PEM of a private key (tests and examples write key files with it)."""
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
