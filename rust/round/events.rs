//! What happens in a hand, step by step. Every change of state emits an [`Event`]; a
//! seat's view of an event hides what that seat cannot see (another seat's dealt tiles and
//! draws, the tile of another seat's concealed kong).
//!
//! # The schema
//!
//! [`EVENT_SCHEMA`] declares every kind of event the shared flow writes once, and the rule
//! sets' own kinds are declared at their boundary ([`RULE_EVENT_SCHEMA`]); together
//! ([`event_schema`]) they give each kind's name and fields, each with its [`FieldType`],
//! in the order they are written. The writers follow it: an event gives
//! its values in that order ([`Event::fields`]) and the JSON writer ([`Event::write_json`])
//! and the Python bindings' dicts take the names from the table, so a field cannot be
//! written under another name or in another place. The record reader of the Python layer
//! validates record lines against the same table (exported as `_core.event_schema()`).

use super::ruleset::{RuleEvent, RULE_EVENT_SCHEMA};
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
    /// An event of the rule set's own (the 宝 turned up after a Huainan deal), declared
    /// at the rule-set boundary ([`RuleEvent`], [`RULE_EVENT_SCHEMA`]).
    RuleSet(RuleEvent),
}

impl Event {
    /// The event's name: `dice`, `deal`, `draw`, `flower`, `discard`, `chow`, `pung`,
    /// `kong`, `concealed_kong`, `added_kong`, `win`, `penalty`, `exhaustive_draw`, or a
    /// rule set's own (`bao`) (its [`EventSpec::kind`]).
    pub fn kind(&self) -> &'static str {
        self.spec().kind
    }

    /// The schema entry of the event's kind.
    pub fn spec(&self) -> &'static EventSpec {
        let i = match self {
            Event::Dice { .. } => 0,
            Event::Deal { .. } => 1,
            Event::Draw { .. } => 2,
            Event::Flower { .. } => 3,
            Event::Discard { .. } => 4,
            Event::Chow { .. } => 5,
            Event::Pung { .. } => 6,
            Event::Kong { .. } => 7,
            Event::ConcealedKong { .. } => 8,
            Event::AddedKong { .. } => 9,
            Event::Win { .. } => 10,
            Event::Penalty { .. } => 11,
            Event::ExhaustiveDraw => 12,
            Event::RuleSet(r) => return r.spec(),
        };
        &EVENT_SCHEMA[i]
    }

    /// The event's values after `type`, in the order of its schema entry's fields (the
    /// values of `fields()` without the names).
    pub(super) fn values(&self) -> ([FieldValue<'_>; MAX_FIELDS], usize) {
        use FieldValue as V;
        let mut out = [V::Flag(false); MAX_FIELDS];
        let vals: &[FieldValue<'_>] = match self {
            &Event::Dice {
                dice,
                break_seat,
                break_stack,
            } => &[V::Dice(dice), V::Seat(break_seat), V::Byte(break_stack)],
            Event::Deal { seat, tiles, n } => {
                &[V::Seat(*seat), V::Tiles(&tiles[..(*n as usize).min(14)])]
            }
            &Event::Draw { seat, tile, tail } => &[V::Seat(seat), V::Tile(tile), V::Flag(tail)],
            &Event::Flower { seat, tile }
            | &Event::ConcealedKong { seat, tile }
            | &Event::AddedKong { seat, tile } => &[V::Seat(seat), V::Tile(tile)],
            &Event::Discard { seat, tile, ready } => {
                &[V::Seat(seat), V::Tile(tile), V::Flag(ready)]
            }
            &Event::Chow {
                seat,
                from,
                tile,
                low,
            } => &[V::Seat(seat), V::Seat(from), V::Tile(tile), V::Tile(low)],
            &Event::Pung { seat, from, tile } | &Event::Kong { seat, from, tile } => {
                &[V::Seat(seat), V::Seat(from), V::Tile(tile)]
            }
            &Event::Win {
                seat,
                from,
                tile,
                kind,
                fan,
            } => &[
                V::Seat(seat),
                V::Seat(from),
                V::Tile(tile),
                V::WinKind(kind),
                V::Word(fan),
            ],
            &Event::Penalty { seat, each } => &[V::Seat(seat), V::Byte(each)],
            Event::ExhaustiveDraw => &[],
            Event::RuleSet(r) => return r.values(),
        };
        out[..vals.len()].copy_from_slice(vals);
        (out, vals.len())
    }

    /// The event's fields after `type` as (name, value), names and order from its schema
    /// entry ([`EVENT_SCHEMA`]); what every writer writes.
    pub fn fields(&self) -> impl Iterator<Item = (&'static str, FieldValue<'_>)> + '_ {
        let (vals, n) = self.values();
        self.spec()
            .fields
            .iter()
            .map(|&(name, _)| name)
            .zip(vals.into_iter().take(n))
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
            Event::Dice { .. } | Event::ExhaustiveDraw | Event::RuleSet(_) => None,
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

    /// Appends the event as one JSON object (no newline): `type`, then its fields in
    /// schema order. Tiles are codes, `null` when hidden.
    pub fn write_json(&self, out: &mut String) {
        let _ = write!(out, "{{\"type\":\"{}\"", self.kind());
        for (name, value) in self.fields() {
            let _ = write!(out, ",\"{name}\":");
            value.write_json(out);
        }
        out.push('}');
    }
}

/// Most fields of one event (after `type`).
pub const MAX_FIELDS: usize = 5;

/// What values a field of an event takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A seat, 0-3.
    Seat,
    /// A tile code, 0-41 (`null` in a view that may not see it).
    Tile,
    /// A seat's dealt tiles: at most 14 tile codes (each `null` where hidden).
    Tiles,
    /// The dice thrown: two or four numbers 1-6.
    Dice,
    /// True or false.
    Flag,
    /// A whole number 0-255.
    Byte,
    /// A whole number 0-65535.
    Word,
    /// How a win was made: a [`WinKind`] name (`self_drawn`, `discard`, `robbed_kong`).
    WinKind,
}

impl FieldType {
    /// Every field type.
    pub const ALL: [FieldType; 8] = [
        FieldType::Seat,
        FieldType::Tile,
        FieldType::Tiles,
        FieldType::Dice,
        FieldType::Flag,
        FieldType::Byte,
        FieldType::Word,
        FieldType::WinKind,
    ];

    /// The type's name: `seat`, `tile`, `tiles`, `dice`, `flag`, `byte`, `word`,
    /// `win_kind`.
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Seat => "seat",
            FieldType::Tile => "tile",
            FieldType::Tiles => "tiles",
            FieldType::Dice => "dice",
            FieldType::Flag => "flag",
            FieldType::Byte => "byte",
            FieldType::Word => "word",
            FieldType::WinKind => "win_kind",
        }
    }

    /// The bounds of a number (or of every number of a list), None for a flag or a name.
    pub fn range(self) -> Option<(u32, u32)> {
        match self {
            FieldType::Seat => Some((0, 3)),
            FieldType::Tile | FieldType::Tiles => Some((0, crate::tile::N_CODES as u32 - 1)),
            FieldType::Dice => Some((1, 6)),
            FieldType::Byte => Some((0, u8::MAX as u32)),
            FieldType::Word => Some((0, u16::MAX as u32)),
            FieldType::Flag | FieldType::WinKind => None,
        }
    }

    /// The lengths a list may have (None for a single value).
    pub fn lengths(self) -> Option<&'static [usize]> {
        match self {
            FieldType::Tiles => Some(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]),
            FieldType::Dice => Some(&[2, 4]),
            _ => None,
        }
    }

    /// The names a name field may hold (empty for the other types).
    pub fn names(self) -> &'static [&'static str] {
        match self {
            FieldType::WinKind => &WIN_KIND_NAMES,
            _ => &[],
        }
    }
}

/// The names of the [`WinKind`]s, as written in events and results.
const WIN_KIND_NAMES: [&str; 3] = [
    WinKind::SelfDrawn.as_str(),
    WinKind::Discard.as_str(),
    WinKind::RobbedKong.as_str(),
];

/// One kind of event: its name (`type`) and its fields after `type`, in written order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventSpec {
    /// The event's name, its `type`.
    pub kind: &'static str,
    /// The fields (name and type), in the order the writers write them.
    pub fields: &'static [(&'static str, FieldType)],
}

/// Every kind of [`Event`] the shared flow writes, with its fields; with the rule sets'
/// own ([`RULE_EVENT_SCHEMA`]) the one declaration of the event schema ([`event_schema`])
/// that the writers follow and the Python record reader checks against.
pub const EVENT_SCHEMA: [EventSpec; 13] = {
    use FieldType::*;
    [
        EventSpec {
            kind: "dice",
            fields: &[("dice", Dice), ("break_seat", Seat), ("break_stack", Byte)],
        },
        EventSpec {
            kind: "deal",
            fields: &[("seat", Seat), ("tiles", Tiles)],
        },
        EventSpec {
            kind: "draw",
            fields: &[("seat", Seat), ("tile", Tile), ("tail", Flag)],
        },
        EventSpec {
            kind: "flower",
            fields: &[("seat", Seat), ("tile", Tile)],
        },
        EventSpec {
            kind: "discard",
            fields: &[("seat", Seat), ("tile", Tile), ("ready", Flag)],
        },
        EventSpec {
            kind: "chow",
            fields: &[
                ("seat", Seat),
                ("from", Seat),
                ("tile", Tile),
                ("low", Tile),
            ],
        },
        EventSpec {
            kind: "pung",
            fields: &[("seat", Seat), ("from", Seat), ("tile", Tile)],
        },
        EventSpec {
            kind: "kong",
            fields: &[("seat", Seat), ("from", Seat), ("tile", Tile)],
        },
        EventSpec {
            kind: "concealed_kong",
            fields: &[("seat", Seat), ("tile", Tile)],
        },
        EventSpec {
            kind: "added_kong",
            fields: &[("seat", Seat), ("tile", Tile)],
        },
        EventSpec {
            kind: "win",
            fields: &[
                ("seat", Seat),
                ("from", Seat),
                ("tile", Tile),
                ("how", WinKind),
                ("fan", Word),
            ],
        },
        EventSpec {
            kind: "penalty",
            fields: &[("seat", Seat), ("each", Byte)],
        },
        EventSpec {
            kind: "exhaustive_draw",
            fields: &[],
        },
    ]
};

/// Every kind of event: the shared flow's, then the rule sets' own.
pub fn event_schema() -> impl Iterator<Item = &'static EventSpec> {
    EVENT_SCHEMA.iter().chain(RULE_EVENT_SCHEMA.iter())
}

/// The value of one field of an event, as the writers write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValue<'a> {
    /// A seat.
    Seat(u8),
    /// A tile, or [`HIDDEN`].
    Tile(Tile),
    /// Tiles, each possibly [`HIDDEN`].
    Tiles(&'a [Tile]),
    /// The dice (unused entries 0, not written).
    Dice([u8; 4]),
    /// A flag.
    Flag(bool),
    /// A number 0-255.
    Byte(u8),
    /// A number 0-65535.
    Word(u16),
    /// How a win was made.
    WinKind(WinKind),
}

impl FieldValue<'_> {
    /// The type of the value.
    pub fn field_type(&self) -> FieldType {
        match self {
            FieldValue::Seat(_) => FieldType::Seat,
            FieldValue::Tile(_) => FieldType::Tile,
            FieldValue::Tiles(_) => FieldType::Tiles,
            FieldValue::Dice(_) => FieldType::Dice,
            FieldValue::Flag(_) => FieldType::Flag,
            FieldValue::Byte(_) => FieldType::Byte,
            FieldValue::Word(_) => FieldType::Word,
            FieldValue::WinKind(_) => FieldType::WinKind,
        }
    }

    /// The dice thrown (the non-zero entries).
    pub fn thrown(dice: &[u8; 4]) -> impl Iterator<Item = u8> + '_ {
        dice.iter().copied().filter(|&d| d > 0)
    }

    /// Appends the value as JSON: numbers, `true`/`false`, a quoted name, lists, and
    /// `null` for a hidden tile.
    pub fn write_json(&self, out: &mut String) {
        fn tile(out: &mut String, t: Tile) {
            if t == HIDDEN {
                out.push_str("null");
            } else {
                let _ = write!(out, "{t}");
            }
        }
        match *self {
            FieldValue::Seat(x) | FieldValue::Byte(x) => {
                let _ = write!(out, "{x}");
            }
            FieldValue::Word(x) => {
                let _ = write!(out, "{x}");
            }
            FieldValue::Flag(b) => {
                let _ = write!(out, "{b}");
            }
            FieldValue::WinKind(k) => {
                let _ = write!(out, "\"{}\"", k.as_str());
            }
            FieldValue::Tile(t) => tile(out, t),
            FieldValue::Tiles(ts) => {
                out.push('[');
                for (i, &t) in ts.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    tile(out, t);
                }
                out.push(']');
            }
            FieldValue::Dice(dice) => {
                out.push('[');
                for (i, d) in Self::thrown(&dice).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{d}");
                }
                out.push(']');
            }
        }
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

    /// One event of every kind (the match is exhaustive: a new kind must be added here).
    fn one_of_each() -> Vec<Event> {
        let all = [
            Event::Dice {
                dice: [6, 5, 1, 2],
                break_seat: 3,
                break_stack: 11,
            },
            Event::Deal {
                seat: 0,
                tiles: [3; 14],
                n: 14,
            },
            Event::Draw {
                seat: 1,
                tile: 33,
                tail: true,
            },
            Event::Flower { seat: 2, tile: 40 },
            Event::Discard {
                seat: 3,
                tile: 0,
                ready: true,
            },
            Event::Chow {
                seat: 1,
                from: 0,
                tile: 4,
                low: 3,
            },
            Event::Pung {
                seat: 2,
                from: 0,
                tile: 30,
            },
            Event::Kong {
                seat: 3,
                from: 1,
                tile: 27,
            },
            Event::ConcealedKong { seat: 0, tile: 8 },
            Event::AddedKong { seat: 1, tile: 9 },
            Event::Win {
                seat: 2,
                from: 2,
                tile: 5,
                kind: WinKind::RobbedKong,
                fan: 300,
            },
            Event::Penalty { seat: 0, each: 20 },
            Event::ExhaustiveDraw,
            Event::RuleSet(RuleEvent::Bao {
                indicator: 3,
                tile: 4,
                throw: 9,
            }),
        ];
        for e in &all {
            match e {
                Event::Dice { .. }
                | Event::Deal { .. }
                | Event::Draw { .. }
                | Event::Flower { .. }
                | Event::Discard { .. }
                | Event::Chow { .. }
                | Event::Pung { .. }
                | Event::Kong { .. }
                | Event::ConcealedKong { .. }
                | Event::AddedKong { .. }
                | Event::Win { .. }
                | Event::Penalty { .. }
                | Event::ExhaustiveDraw
                | Event::RuleSet(RuleEvent::Bao { .. }) => {}
            }
        }
        all.to_vec()
    }

    #[test]
    fn every_kind_is_in_the_schema_once_and_its_values_have_the_declared_types() {
        let all = one_of_each();
        assert_eq!(all.len(), event_schema().count());
        let mut kinds: Vec<&str> = event_schema().map(|s| s.kind).collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), event_schema().count(), "a kind declared twice");
        for e in &all {
            let spec = e.spec();
            assert_eq!(e.kind(), spec.kind);
            assert!(spec.fields.len() <= MAX_FIELDS);
            let fields: Vec<(&str, FieldValue<'_>)> = e.fields().collect();
            assert_eq!(fields.len(), spec.fields.len(), "{}", spec.kind);
            for ((name, value), &(declared, ty)) in fields.iter().zip(spec.fields) {
                assert_eq!(*name, declared);
                assert_eq!(value.field_type(), ty, "{}.{name}", spec.kind);
            }
            // The seat an event names is its `seat` field.
            let seat = fields.iter().find(|(n, _)| *n == "seat").map(|(_, v)| *v);
            assert_eq!(seat, e.seat().map(FieldValue::Seat), "{}", spec.kind);
            // A seat's view hides tiles, never a field or its type.
            let seen: Vec<FieldType> = e
                .seen_by(Some(3))
                .fields()
                .map(|(_, v)| v.field_type())
                .collect();
            let declared: Vec<FieldType> = spec.fields.iter().map(|f| f.1).collect();
            assert_eq!(seen, declared, "{}", spec.kind);
        }
    }

    /// The keys of a flat JSON object written by `write_json`, in order.
    fn keys(json: &str) -> Vec<&str> {
        json.split('"')
            .collect::<Vec<_>>()
            .windows(2)
            .filter(|w| w[1].starts_with(':'))
            .map(|w| w[0])
            .collect()
    }

    #[test]
    fn json_writes_the_schema_fields_in_order() {
        for e in one_of_each() {
            for viewer in [None, Some(1)] {
                let mut s = String::new();
                e.seen_by(viewer).write_json(&mut s);
                let mut want = vec!["type"];
                want.extend(e.spec().fields.iter().map(|f| f.0));
                assert_eq!(keys(&s), want, "{s}");
            }
        }
        let mut s = String::new();
        one_of_each()[1].seen_by(Some(2)).write_json(&mut s);
        assert!(
            s.starts_with(r#"{"type":"deal","seat":0,"tiles":[null,null"#),
            "{s}"
        );
    }

    #[test]
    fn field_types_describe_their_values() {
        for t in FieldType::ALL {
            let list = t.lengths().is_some();
            let named = !t.names().is_empty();
            assert!(!(list && named), "{}", t.name());
            assert_eq!(
                t.range().is_none(),
                matches!(t, FieldType::Flag | FieldType::WinKind)
            );
        }
        assert_eq!(
            FieldType::WinKind.names(),
            &["self_drawn", "discard", "robbed_kong"]
        );
    }
}
