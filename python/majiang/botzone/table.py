"""A Botzone bot's picture of the table, built from its requests (and its own answers).

:class:`Table` follows one hand from the requests ``0`` … ``3`` a Botzone bot receives and
turns the moment of a decision into the dict :meth:`majiang.Round.from_view` reads, so a
built-in policy can choose on a round rebuilt at that decision (its legal actions are the
round's own).

Walls. The judge deals 13 tiles to each player and player 0 (dealer, East) draws first.
Its walls are private (docs/rules/botzone.md, B-1 and B-7): ``walltiles`` cut into four
equal runs, one per player, each dealt and drawn from its end: 34 tiles a player without
flowers (21 left after the deal), 36 with them, every flower at the deal or in play
replaced from the drawer's own run. The rebuilt round sees one shared wall holding every
undrawn tile, so the fans of the last tile (妙手回春, 海底捞月) are only counted once every
wall is empty: never more than the judge gives.

The judge's checks the rebuilt round does not make are made here (B-1, B-6): with
private walls a claim other than a win is never made when the discarder's next player's
wall is empty, and a kong on one's own turn never when one's own wall or the next
player's is (the judge refuses both: WA). 杠上开花 is counted exactly when the judge
grants it: on the draw that replaces one's own kong of any kind (concealed, on a discard,
added), not after a flower drawn in between (the judge clears its flag then).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .protocol import Deal, Draw, Move, Position, ProtocolError, Request, Response, tile_name

__all__ = ["Table"]


@dataclass
class Table:
    """One hand as seen by Botzone player ``me``."""

    me: int = -1
    quan: int = 0
    hand: list[int] = field(default_factory=list)
    melds: list[list[tuple[str, int | None, int]]] = field(default_factory=lambda: [[], [], [], []])
    flowers: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    discards: list[tuple[int, int, bool]] = field(default_factory=list)
    drawn: int | None = None
    #: Tiles taken from each player's wall (private walls) or all from one (shared).
    taken: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: The last request's move, to tell a kong on a discard from a concealed one.
    last: Request | None = None
    #: The seat whose turn it is.
    turn: int = 0
    dealt: bool = False
    #: Flowers drawn at the deal, per player.
    deal_flowers: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: Each player draws only from its own wall (the judge without a shared wall).
    private_walls: bool = True
    #: Flowers are in play even if none was dealt.
    flowers_on: bool = False
    #: This player declared a kong and has not drawn since (its replacement is next).
    kong_owed: bool = False
    #: This player's drawn tile replaces its kong (the judge's 杠上开花 flag, B-6).
    kong_draw: bool = False

    # ------------------------------------------------------------------ walls

    @property
    def has_flowers(self) -> bool:
        """True when flowers are in play (seen at the deal or drawn)."""
        return self.flowers_on or any(self.flowers)

    @property
    def wall_total(self) -> int:
        """Tiles in the walls before the deal: 144 with flowers, 136 without."""
        return 144 if self.has_flowers else 136

    @property
    def wall_remaining(self) -> int:
        """Undrawn tiles in all the walls together."""
        return self.wall_total - 52 - sum(self.deal_flowers) - sum(self.taken)

    def wall_of(self, player: int) -> int:
        """Tiles left in ``player``'s private wall."""
        return self.wall_total // 4 - 13 - self.deal_flowers[player] - self.taken[player]

    def next_wall_empty(self, player: int) -> bool:
        """With private walls, the wall of the player after ``player`` is empty (the
        judge then refuses kongs and claims other than a win)."""
        return self.private_walls and self.wall_of((player + 1) % 4) <= 0

    def may_kong(self) -> bool:
        """This player may declare a kong on its own turn: the judge wants a tile in its
        own wall (the replacement) and, with private walls, in the next player's."""
        if not self.private_walls:
            return self.wall_remaining > 0
        return self.wall_of(self.me) > 0 and not self.next_wall_empty(self.me)

    # ------------------------------------------------------------------ updates

    def update(self, request: Request, answer: Response | None = None) -> None:
        """Takes in one request; ``answer`` is this bot's response to the request before
        it, needed only to learn the tile of its own concealed kong."""
        if isinstance(request, Position):
            self.me, self.quan = request.me, request.quan
        elif isinstance(request, Deal):
            if self.me < 0:
                raise ProtocolError("a deal before the position request")
            self.hand = list(request.hand)
            k = 0
            for p, n in enumerate(request.flower_counts):
                self.flowers[p] = list(request.flowers[k : k + n])
                self.deal_flowers[p] = n
                k += n
            self.dealt = True
        elif isinstance(request, Draw):
            self._need_deal()
            if self.hand.count(request.tile) >= 4:
                raise ProtocolError(f"the bot draws a fifth {tile_name(request.tile)}")
            self.hand.append(request.tile)
            self.drawn = request.tile
            self.turn = self.me
            self.taken[self.me] += 1
            self.kong_draw, self.kong_owed = self.kong_owed, False
        elif isinstance(request, Move):
            self._need_deal()
            self._move(request, answer)
        self.last = request

    def _need_deal(self) -> None:
        if not self.dealt:
            raise ProtocolError("a request of play before the deal")

    def _take(self, tile: int, n: int = 1) -> None:
        for _ in range(n):
            if tile not in self.hand:
                raise ProtocolError(f"the requests take a tile {tile} the bot does not hold")
            self.hand.remove(tile)

    def _claimed(self) -> tuple[int, int]:
        if not self.discards or self.discards[-1][2]:
            raise ProtocolError("a claim with no discard to claim")
        seat, tile, _ = self.discards[-1]
        self.discards[-1] = (seat, tile, True)
        return seat, tile

    def _move(self, m: Move, answer: Response | None) -> None:
        p, mine = m.player, m.player == self.me
        if m.op == "DRAW":
            self.taken[p] += 1
            self.turn = p
        elif m.op == "BUHUA":
            self.flowers[p].append(m.tiles[0])
            self.taken[p] += 1
            self.turn = p
            if mine:
                # The judge forgets the kong once a flower replaces it (B-6).
                self.kong_owed = False
        elif m.op == "PLAY":
            if mine:
                self._take(m.tiles[0])
                self.drawn = None
            self.discards.append((p, m.tiles[0], False))
            self.turn = p
        elif m.op in ("PENG", "CHI"):
            src, d = self._claimed()
            if m.op == "PENG":
                self.melds[p].append(("pung", d, src))
                used = [d, d]
            else:
                mid = m.tiles[0]
                self.melds[p].append(("chow", mid - 1, src))
                used = [x for x in (mid - 1, mid, mid + 1)]
                if d not in used:
                    raise ProtocolError(
                        f"player {p} chows {tile_name(d)} into a chow around {tile_name(mid)}"
                    )
                used.remove(d)
            discard = m.tiles[-1]
            if mine:
                for x in used:
                    self._take(x)
                self._take(discard)
            self.discards.append((p, discard, False))
            self.turn = p
        elif m.op == "GANG":
            prev = self.last
            on_discard = (
                isinstance(prev, Move) and prev.op in ("PLAY", "PENG", "CHI") and prev.player != p
            )
            if on_discard:
                src, d = self._claimed()
                self.melds[p].append(("kong", d, src))
                if mine:
                    self._take(d, 3)
            elif mine:
                if answer is None or answer.op != "GANG" or len(answer.tiles) != 1:
                    raise ProtocolError("the bot's concealed kong needs its own GANG answer")
                t = answer.tiles[0]
                self._take(t, 4)
                self.melds[p].append(("concealed_kong", t, p))
            else:
                self.melds[p].append(("concealed_kong", None, p))
            self.drawn = None
            self.turn = p
            self.kong_owed = mine
        elif m.op == "BUGANG":
            t = m.tiles[0]
            for i, (kind, tile, src) in enumerate(self.melds[p]):
                if kind == "pung" and tile == t:
                    self.melds[p][i] = ("kong", t, src)
                    break
            else:
                raise ProtocolError(f"player {p} adds to a pung of {t} it does not have")
            if mine:
                self._take(t)
            self.drawn = None
            self.turn = p
            self.kong_owed = mine

    # ------------------------------------------------------------------ views

    def view(self, phase: str, turn: int, claim: int | None = None) -> dict:
        """The dict :meth:`majiang.Round.from_view` reads, at a decision of the bot:
        ``phase`` ``turn`` (its own), ``claim`` (a discard of ``turn``) or ``rob_kong``."""
        melds = [list(ms) for ms in self.melds]
        if phase == "rob_kong":
            # Under a robbing decision the konger's meld is still a pung.
            for i, (kind, tile, src) in enumerate(melds[turn]):
                if kind == "kong" and tile == claim:
                    melds[turn][i] = ("pung", tile, src)
        return {
            "seat": self.me,
            "dealer": 0,
            "prevalent_wind": self.quan,
            "hand": list(self.hand),
            "drawn": self.drawn if phase == "turn" else None,
            "kong_replacement": phase == "turn" and self.kong_draw,
            "melds": melds,
            "flowers": [list(f) for f in self.flowers],
            "discards": list(self.discards),
            "wall_remaining": self.wall_remaining,
            "phase": phase,
            "turn": turn,
            "claim": claim,
        }
