"""Friends and challenges in the protocol (``docs/social.md``): the HTTP bodies and answers, and
the notice socket ``/ws/notices``, which every page of a signed-in player keeps open.

On the notice socket the client says ``hello`` with its account's token first, then
``here`` whenever the room it shows changes (friends see it); the server answers ``welcome``
and then sends a ``challenge`` notice for every challenge made to or by the account, and again
whenever one is answered (its ``status`` says how; an accepted one carries the challenger's
seat, for the challenger only); an ``arena`` notice when an arena the account joined starts.

>>> notice_client_message('{"type": "here", "room": "ABCD"}').room
'ABCD'
>>> encode_notice({"type": "welcome", "account": 7, "server_time": 1})
'{"type":"welcome","account":7,"server_time":1}'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, RootModel, TypeAdapter

from .incoming import MAX_CODE_CHARS, EditionName, Phrase, Strict
from .outgoing import ProtocolCode
from .snapshot import Ms, SeatTicket, Sent

#: what a challenge is: waiting for its answer, answered, or past its time unanswered
ChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]

# --- HTTP ------------------------------------------------------------------------------------


class NewChallenge(Strict):
    """``POST /api/challenges``: the account challenged, and the game proposed."""

    to: int = Field(ge=1, le=2**31 - 1, description="the challenged account's id")
    edition: EditionName
    rated: bool = False


class FollowState(Sent):
    """``PUT`` and ``DELETE /api/accounts/{account_id}/follow``: whether the token's account
    follows that one now."""

    following: bool


class Friend(Sent):
    """An account the token's account follows; where it is, only if it follows back."""

    id: int
    name: str
    mutual: bool = Field(description="it follows back: friends see each other online")
    online: bool | None = Field(description="null unless mutual")
    room: str | None = Field(description="the room its page shows (mutual and online only)")


class Friends(RootModel[list[Friend]]):
    """``GET /api/friends``: the accounts the token's account follows, by name."""


class ChallengeView(Sent):
    """A challenge as its two accounts see it."""

    id: int
    from_id: int
    from_name: str
    to_id: int
    to_name: str
    edition: str
    rated: bool
    made_at: Ms
    expires_at: Ms
    status: ChallengeStatus
    room: str | None = Field(description="the room made for it, once accepted")


class Challenges(Sent):
    """``GET /api/challenges``: the token's account's open challenges, made and received, and
    the seats of its challenges accepted lately (a page that missed the notice takes its seat
    from here)."""

    received: list[ChallengeView]
    made: list[ChallengeView]
    seats: list[SeatTicket] = Field(description="seats of the account's accepted challenges")
    server_time: Ms


# --- the notice socket ------------------------------------------------------------------------


class NoticeHello(Strict):
    """The first message: the account's token (never in the URL, which logs keep)."""

    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=200)


class Here(Strict):
    """The room the page shows now (its code), or none; friends see it."""

    type: Literal["here"]
    room: str | None = Field(max_length=MAX_CODE_CHARS, pattern=r"^[A-Za-z0-9]+$")


NoticeClientMessage = Annotated[NoticeHello | Here, Field(discriminator="type")]


class NoticeWelcome(Sent):
    type: Literal["welcome"]
    account: int
    server_time: Ms


class ChallengeNotice(Sent):
    """A challenge made to or by the account, or answered: its state now; ``seat``: the
    challenger's seat in the room made for an accepted one (sent to the challenger only)."""

    type: Literal["challenge"]
    challenge: ChallengeView
    seat: SeatTicket | None


class ArenaNotice(Sent):
    """An arena the account joined has started (docs/arenas.md): its races begin for those
    with its page open; or a friend's arena has (the account has not joined it)."""

    type: Literal["arena"]
    arena: str = Field(description="the arena's id (its page: /arena/{id})")
    title: str
    starts_at: Ms
    friend: str | None = Field(
        description="the friend who made it (the account has not joined); null: one it joined"
    )


class ReplayChatLine(Sent):
    """A line a player said in a stored game's room (docs/social.md), in its replay."""

    seat: int
    phrase: Phrase | None = Field(description="a quick phrase's key, or null for free text")
    text: str | None = Field(description="free text, or null for a phrase")
    at: float = Field(description="seconds since the first round started (negative: the lobby)")


class NoticeError(Sent):
    type: Literal["error"]
    code: ProtocolCode
    message: str


Notice = Annotated[
    NoticeWelcome | ChallengeNotice | ArenaNotice | NoticeError, Field(discriminator="type")
]

_client_adapter: TypeAdapter[NoticeClientMessage] = TypeAdapter(NoticeClientMessage)
_notice_adapter: TypeAdapter[Notice] = TypeAdapter(Notice)


def notice_client_message(text: str | bytes) -> NoticeClientMessage:
    """A frame a client sent on the notice socket (``pydantic.ValidationError`` if not one)."""
    return _client_adapter.validate_json(text)


def encode_notice(notice: dict[str, Any]) -> str:
    """The JSON text of a notice, made through its model."""
    return _notice_adapter.dump_json(_notice_adapter.validate_python(notice)).decode()
