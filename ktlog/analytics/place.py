"""Where a dataset lives: a local folder, or an `s3://bucket/prefix` in object storage (S3 or a
server speaking its protocol). Loaded without Polars, which only writing a file needs (`served`).

Parquet files are read and written by Polars itself (object_store, given `storage_options`);
boto3 lists the files, reads and writes `metadata.json`, and finds the credentials the usual
way (the `AWS_*` environment variables, `~/.aws/config` and `credentials`, a profile's
`endpoint_url`, an instance's role), which Polars is then given. boto3 is needed only for
`s3://` (the `s3` extra: `pip install 'ktlog[s3]'`)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import KtlogError
from ..files.atomic import write_atomically

if TYPE_CHECKING:
    import polars as pl


def _pattern(glob: str) -> re.Pattern[str]:
    """A glob of `*`s, each matching within one folder name."""
    return re.compile("[^/]*".join(map(re.escape, glob.split("*"))))


class Place:
    """A dataset's folder or prefix; names inside it are relative, `/`-separated."""

    storage_options: dict[str, str] | None = None

    @staticmethod
    def of(where: str | Path) -> Place:
        text = str(where)
        if text.startswith("s3://"):
            bucket, _, prefix = text[5:].partition("/")
            if not bucket:
                raise KtlogError(f"{text}: an object storage address is s3://BUCKET/PREFIX; give the bucket")
            return S3Place(bucket, prefix.strip("/"))
        if "://" in text:
            raise KtlogError(f"{text}: a dataset is a local folder or an s3://BUCKET/PREFIX address; no other scheme is read")
        return Folder(Path(text))

    def name(self, rel: str) -> str:
        raise NotImplementedError

    def exists(self, rel: str) -> bool:
        raise NotImplementedError

    def read(self, rel: str) -> bytes:
        raise NotImplementedError

    def read_if_any(self, rel: str) -> bytes | None:
        """The bytes of the file `rel`, or None if there is none: one request in object storage,
        where `exists` then `read` are two."""
        return self.read(rel) if self.exists(rel) else None

    def write(self, rel: str, data: bytes) -> None:
        raise NotImplementedError

    def write_parquet(self, rel: str, frame: pl.DataFrame, metadata: dict[str, str] | None = None) -> None:
        """Write `frame` as the Parquet file `rel` (with key-value `metadata`), whole or not at all."""
        raise NotImplementedError

    def glob(self, pattern: str) -> list[str]:
        """The files matching `pattern` (`*` within one folder name), sorted, as full names."""
        raise NotImplementedError

    def digest(self, files: list[tuple[str, str]], keep: bool = False) -> tuple[str, dict[str, bytes]]:
        """The SHA-256 of `files`, each (label, name inside the dataset) taken as its label, its size
        (-1 if missing) and its bytes: what a stored figure is of. `keep`: also the bytes of each
        file found, by label (else none are kept)."""
        digest, found = hashlib.sha256(), {}
        for label, rel in files:
            data = self.read_if_any(rel)
            digest.update(f"{label}:{-1 if data is None else len(data)}:".encode())
            if data is not None:
                digest.update(data)
                if keep:
                    found[label] = data
        return digest.hexdigest(), found


@dataclass(frozen=True)
class Folder(Place):
    path: Path

    def __str__(self) -> str:
        return str(self.path)

    def name(self, rel: str) -> str:
        return str(self.path / rel)

    def exists(self, rel: str) -> bool:
        return (self.path / rel).is_file()

    def read(self, rel: str) -> bytes:
        try:
            return (self.path / rel).read_bytes()
        except OSError as exc:
            raise KtlogError(f"cannot read {self.path / rel} ({exc.strerror or exc})") from exc

    def write(self, rel: str, data: bytes) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path / rel, lambda f: f.write(data))

    def write_parquet(self, rel: str, frame: pl.DataFrame, metadata: dict[str, str] | None = None) -> None:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, lambda f: frame.write_parquet(f, metadata=metadata))

    def glob(self, pattern: str) -> list[str]:
        """The files matching `pattern`; anything else of that name (a pipe, a folder, a device)
        is refused, named: left out, it changed the statistics silently (issue 38)."""
        found = sorted(self.path.glob(pattern))
        for path in found:
            if not path.is_file():
                kind = "a folder" if path.is_dir() else "a pipe" if path.is_fifo() else "a device or socket"
                raise KtlogError(
                    f"{path} is {kind}, not a file ktlog wrote: a dataset's parts are regular files; remove it, or export again into an empty folder"
                )
        return [str(p) for p in found]


@dataclass(frozen=True)
class S3Place(Place):
    bucket: str
    prefix: str

    def __str__(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}".rstrip("/")

    def key(self, rel: str) -> str:
        return f"{self.prefix}/{rel}" if self.prefix else rel

    def name(self, rel: str) -> str:
        return f"s3://{self.bucket}/{self.key(rel)}"

    @cached_property
    def session(self) -> Any:
        try:
            import boto3
        except ImportError as exc:
            raise KtlogError(f"{self}: object storage needs boto3; install it with `pip install 'ktlog[s3]'`") from exc
        return boto3.session.Session()

    @cached_property
    def client(self) -> Any:
        return self.session.client("s3")

    @cached_property
    def storage_options(self) -> dict[str, str] | None:  # type: ignore[override]
        """The credentials, region and endpoint boto3 found, for Polars (object_store's keys)."""
        credentials = self.session.get_credentials()
        if credentials is None:
            raise KtlogError(
                f"{self}: no AWS credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ~/.aws (AWS_PROFILE); nothing was done"
            )
        frozen = credentials.get_frozen_credentials()
        endpoint = self.client.meta.endpoint_url
        options = {
            "aws_access_key_id": frozen.access_key,
            "aws_secret_access_key": frozen.secret_key,
            "aws_region": self.client.meta.region_name or "us-east-1",
        }
        if frozen.token:
            options["aws_session_token"] = frozen.token
        if endpoint and not re.fullmatch(r"https://s3[.-]([a-z0-9-]+[.])?amazonaws[.]com", endpoint):
            options |= {"aws_endpoint_url": endpoint, "aws_allow_http": str(endpoint.startswith("http://")).lower()}
        return options

    def _call(self, what: str, call, **kw) -> Any:
        from botocore.exceptions import BotoCoreError, ClientError

        self.storage_options  # noqa: B018 (no credentials: say so before any request)
        try:
            return call(Bucket=self.bucket, **kw)
        except ClientError as exc:
            raise KtlogError(f"cannot {what} ({exc.response.get('Error', {}).get('Message') or exc}); check the bucket, the prefix and your rights") from exc
        except BotoCoreError as exc:
            raise KtlogError(f"cannot {what} ({exc})") from exc

    def exists(self, rel: str) -> bool:
        listed = self._call(f"list {self}", self.client.list_objects_v2, Prefix=self.key(rel), MaxKeys=1)
        return any(o["Key"] == self.key(rel) for o in listed.get("Contents", ()))

    def read(self, rel: str) -> bytes:
        return self._call(f"read {self.name(rel)}", self.client.get_object, Key=self.key(rel))["Body"].read()

    def read_if_any(self, rel: str) -> bytes | None:
        try:
            return self.read(rel)
        except KtlogError as exc:
            if isinstance(exc.__cause__, self.client.exceptions.NoSuchKey):
                return None
            raise

    def write(self, rel: str, data: bytes) -> None:
        self._call(f"write {self.name(rel)}", self.client.put_object, Key=self.key(rel), Body=data)

    def write_parquet(self, rel: str, frame: pl.DataFrame, metadata: dict[str, str] | None = None) -> None:
        """One PUT: the object is the old one or the new one, never half of it."""
        import polars as pl

        try:
            frame.write_parquet(self.name(rel), storage_options=self.storage_options, metadata=metadata)
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise KtlogError(f"cannot write {self.name(rel)} ({exc}); check the bucket, the prefix and your rights") from exc

    def glob(self, pattern: str) -> list[str]:
        wanted, keys = _pattern(self.key(pattern)), []
        start = self.key(pattern.split("*")[0])
        pages = self._call(f"list {self}", self.client.get_paginator("list_objects_v2").paginate, Prefix=start)
        for page in pages:
            keys += [o["Key"] for o in page.get("Contents", ()) if wanted.fullmatch(o["Key"])]
        return [f"s3://{self.bucket}/{k}" for k in sorted(keys)]
