//! What happens in a hand, step by step. Every change of state emits an [`Event`]; a
//! seat's view of an event hides what that seat cannot see (another seat's dealt tiles and
//! draws, the tile of another seat's concealed kong).

use super::HIDDEN;
use crate::hand::WinKind;
use crate::tile::Tile;
use std::fmt::Write;

/// One step of a hand. Seats are absolute (0-3); tiles are codes, or [`HIDDEN`] in a
/// view that may not see them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The dice thrown to break the wall (see [`crate::wall::Dice`]).
    Dice {
        /// The dice (two or four; unused entries 0).
        dice: [u8; 4],
        /// Whose wall is broken, counted counter-clockwise from the dealer.
        break_seat: u8,
        /// Stacks counted from that wall's right-hand end.
        break_stack: u8,
    },
    /// A seat's opening tiles as dealt (flowers included; replaced afterwards).
    Deal {
        /// The seat.
        seat: u8,
        /// The tiles; the first `n` are used.
        tiles: [Tile; 14],
        /// 14 for the dealer, 13 for the others.
        n: u8,
    },
    /// A tile drawn from the head, or from the tail (`tail`) as a replacement.
    Draw {
        /// The seat.
        seat: u8,
        /// The tile.
        tile: Tile,
        /// True for a replacement from the tail.
        tail: bool,
    },
    /// A flower set aside (it is replaced from the tail by the next draw).
    Flower {
        /// The seat.
        seat: u8,
        /// The flower.
        tile: Tile,
    },
    /// A discard; `ready` when it declares ready (报听).
    Discard {
        /// The seat.
        seat: u8,
        /// The tile.
        tile: Tile,
        /// True when the discard declares ready.
        ready: bool,
    },
    /// A chow claimed from `from` (always the claimer's left).
    Chow {
        /// The claimer.
        seat: u8,
        /// The discarder.
        from: u8,
        /// The claimed tile.
        tile: Tile,
        /// The chow's lowest tile.
        low: Tile,
    },
    /// A pung claimed from `from`.
    Pung {
        /// The claimer.
        seat: u8,
        /// The discarder.
        from: u8,
        /// The tile.
        tile: Tile,
    },
    /// An exposed kong claimed from `from` (直杠).
    Kong {
        /// The claimer.
        seat: u8,
        /// The discarder.
        from: u8,
        /// The tile.
        tile: Tile,
    },
    /// A concealed kong (暗杠); face down, so others see [`HIDDEN`].
    ConcealedKong {
        /// The seat.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// A tile added to an exposed pung (补杠). The others may rob it before it stands.
    AddedKong {
        /// The seat.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// A win. `from` is the discarder or konger (the winner itself for a self-draw).
    Win {
        /// The winner.
        seat: u8,
        /// Who pays as discarder or konger (the winner for a self-draw).
        from: u8,
        /// The winning tile.
        tile: Tile,
        /// How it was won.
        kind: WinKind,
        /// The fan total (flowers included).
        fan: u16,
    },
    /// A false declaration under `penalty_mode = mcr_1998`: the seat pays `each` to each
    /// of the others and may not win this hand.
    Penalty {
        /// The seat.
        seat: u8,
        /// Points paid to each other seat (10: below the minimum, 20: not a win).
        each: u8,
    },
    /// The wall ran out: nobody won.
    ExhaustiveDraw,
    /// Huainan: after the deal a throw of `throw` turns up `indicator` in the wall, and
    /// `tile` is the 宝 (docs/rules/huainan.md §5).
    Bao {
        /// The indicator tile.
        indicator: Tile,
        /// The 宝 face.
        tile: Tile,
        /// The dice total that placed the indicator (stacks from the tail).
        throw: u8,
    },
}

impl Event {
    /// The event's name: `dice`, `deal`, `draw`, `flower`, `discard`, `chow`, `pung`,
    /// `kong`, `concealed_kong`, `added_kong`, `win`, `penalty`, `exhaustive_draw`, `bao`.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Dice { .. } => "dice",
            Event::Deal { .. } => "deal",
            Event::Draw { .. } => "draw",
            Event::Flower { .. } => "flower",
            Event::Discard { .. } => "discard",
            Event::Chow { .. } => "chow",
            Event::Pung { .. } => "pung",
            Event::Kong { .. } => "kong",
            Event::ConcealedKong { .. } => "concealed_kong",
            Event::AddedKong { .. } => "added_kong",
            Event::Win { .. } => "win",
            Event::Penalty { .. } => "penalty",
            Event::ExhaustiveDraw => "exhaustive_draw",
            Event::Bao { .. } => "bao",
        }
    }

    /// The seat that acts, if any.
    pub fn seat(&self) -> Option<u8> {
        match *self {
            Event::Deal { seat, .. }
            | Event::Draw { seat, .. }
            | Event::Flower { seat, .. }
            | Event::Discard { seat, .. }
            | Event::Chow { seat, .. }
            | Event::Pung { seat, .. }
            | Event::Kong { seat, .. }
            | Event::ConcealedKong { seat, .. }
            | Event::AddedKong { seat, .. }
            | Event::Win { seat, .. }
            | Event::Penalty { seat, .. } => Some(seat),
            Event::Dice { .. } | Event::ExhaustiveDraw | Event::Bao { .. } => None,
        }
    }

    /// The event as `viewer` sees it (`None`: everything, as in a full record).
    pub fn seen_by(&self, viewer: Option<u8>) -> Event {
        let Some(v) = viewer else { return *self };
        match *self {
            Event::Deal { seat, n, .. } if seat != v => Event::Deal {
                seat,
                tiles: [HIDDEN; 14],
                n,
            },
            Event::Draw { seat, tail, .. } if seat != v => Event::Draw {
                seat,
                tile: HIDDEN,
                tail,
            },
            Event::ConcealedKong { seat, .. } if seat != v => {
                Event::ConcealedKong { seat, tile: HIDDEN }
            }
            e => e,
        }
    }

    /// Appends the event as one JSON object (no newline). Tiles are codes, `null` when
    /// hidden.
    pub fn write_json(&self, out: &mut String) {
        fn tile(out: &mut String, key: &str, t: Tile) {
            if t == HIDDEN {
                let _ = write!(out, ",\"{key}\":null");
            } else {
                let _ = write!(out, ",\"{key}\":{t}");
            }
        }
        let _ = write!(out, "{{\"type\":\"{}\"", self.kind());
        if let Some(s) = self.seat() {
            let _ = write!(out, ",\"seat\":{s}");
        }
        match *self {
            Event::Dice {
                dice,
                break_seat,
                break_stack,
            } => {
                out.push_str(",\"dice\":[");
                for (i, d) in dice.iter().filter(|&&d| d > 0).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{d}");
                }
                let _ = write!(
                    out,
                    "],\"break_seat\":{break_seat},\"break_stack\":{break_stack}"
                );
            }
            Event::Deal { tiles, n, .. } => {
                out.push_str(",\"tiles\":[");
                for (i, &t) in tiles[..n as usize].iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if t == HIDDEN {
                        out.push_str("null");
                    } else {
                        let _ = write!(out, "{t}");
                    }
                }
                out.push(']');
            }
            Event::Draw { tile: t, tail, .. } => {
                tile(out, "tile", t);
                let _ = write!(out, ",\"tail\":{tail}");
            }
            Event::Flower { tile: t, .. }
            | Event::ConcealedKong { tile: t, .. }
            | Event::AddedKong { tile: t, .. } => tile(out, "tile", t),
            Event::Discard { tile: t, ready, .. } => {
                tile(out, "tile", t);
                let _ = write!(out, ",\"ready\":{ready}");
            }
            Event::Chow {
                from, tile: t, low, ..
            } => {
                let _ = write!(out, ",\"from\":{from}");
                tile(out, "tile", t);
                tile(out, "low", low);
            }
            Event::Pung { from, tile: t, .. } | Event::Kong { from, tile: t, .. } => {
                let _ = write!(out, ",\"from\":{from}");
                tile(out, "tile", t);
            }
            Event::Win {
                from,
                tile: t,
                kind,
                fan,
                ..
            } => {
                let _ = write!(out, ",\"from\":{from}");
                tile(out, "tile", t);
                let _ = write!(out, ",\"how\":\"{}\",\"fan\":{fan}", kind.as_str());
            }
            Event::Penalty { each, .. } => {
                let _ = write!(out, ",\"each\":{each}");
            }
            Event::ExhaustiveDraw => {}
            Event::Bao {
                indicator,
                tile: t,
                throw,
            } => {
                tile(out, "indicator", indicator);
                tile(out, "tile", t);
                let _ = write!(out, ",\"throw\":{throw}");
            }
        }
        out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_hide_private_tiles() {
        let d = Event::Draw {
            seat: 1,
            tile: 5,
            tail: false,
        };
        assert_eq!(d.seen_by(Some(1)), d);
        assert_eq!(
            d.seen_by(Some(2)),
            Event::Draw {
                seat: 1,
                tile: HIDDEN,
                tail: false
            }
        );
        assert_eq!(d.seen_by(None), d);
        let k = Event::ConcealedKong { seat: 0, tile: 9 };
        assert_eq!(
            k.seen_by(Some(3)),
            Event::ConcealedKong {
                seat: 0,
                tile: HIDDEN
            }
        );
        let p = Event::Pung {
            seat: 0,
            from: 2,
            tile: 9,
        };
        assert_eq!(p.seen_by(Some(3)), p);
    }

    #[test]
    fn json_lines() {
        let mut s = String::new();
        Event::Draw {
            seat: 1,
            tile: HIDDEN,
            tail: true,
        }
        .write_json(&mut s);
        assert_eq!(s, r#"{"type":"draw","seat":1,"tile":null,"tail":true}"#);
        s.clear();
        Event::Dice {
            dice: [3, 4, 0, 0],
            break_seat: 2,
            break_stack: 7,
        }
        .write_json(&mut s);
        assert_eq!(
            s,
            r#"{"type":"dice","dice":[3,4],"break_seat":2,"break_stack":7}"#
        );
        s.clear();
        Event::Win {
            seat: 2,
            from: 0,
            tile: 7,
            kind: WinKind::Discard,
            fan: 12,
        }
        .write_json(&mut s);
        assert_eq!(
            s,
            r#"{"type":"win","seat":2,"from":0,"tile":7,"how":"discard","fan":12}"#
        );
    }
}
