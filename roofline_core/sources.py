"""Citations carried by every preset value.

A :class:`Source` names where a number comes from and quotes what that source states, so a
reader can check a preset against its spec sheet without trusting this package.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Source:
    """Where a preset's numbers come from.

    Attributes:
        title: Human-readable name of the document.
        url: Address of the document.
        states: The exact figures the document states, quoted or closely paraphrased, including
            any "with sparsity" qualifier, so the dense value in the preset can be checked.
    """

    title: str
    url: str
    states: str

    def __post_init__(self) -> None:
        if not self.url.startswith("https://"):
            raise ValueError(f"source {self.title!r}: url must be an https address, got {self.url!r}")
        if not self.states.strip():
            raise ValueError(f"source {self.title!r}: 'states' must quote the figures used")

    @property
    def host(self) -> str:
        """The address's host name without a leading ``www.``, for listings too narrow for a URL."""
        host = urlsplit(self.url).hostname or self.url
        return host.removeprefix("www.")
