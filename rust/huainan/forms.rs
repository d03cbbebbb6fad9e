//! The 23 forms of winning (docs/rules/huainan.md §9) as exact predicates over a finished hand
//! and the facts of its win, and the value of the win (§10.1-10.4).

use super::{DihuDefinition, DiscardWins, HuainanOptions, ScoringMode};
use crate::error::{MjError, MjResult};
use crate::hand::{self, HandSize, Meld, MeldKind};
use crate::shanten::wild::{self, Sets, Wild};
use crate::tile::{self, Counts, Tile};

/// A primary form (exactly one per win) or a special win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// #1 宝吊头: a win from the 宝吊头 state.
    Baodiaotou,
    /// #8 宝吊宝: a self-drawn 宝吊头 win on a 宝.
    Baodiaobao,
    /// #9 宝吊无宝: a self-drawn 宝吊头 win whose hand reads naturally.
    BaodiaoWubao,
    /// #6 清碰碰糊: all pungs, natural.
    QingPengpeng,
    /// #5 碰碰糊: all pungs only with a 宝 acting, not from the 宝吊头 state.
    Pengpeng,
    /// #19 平糊自摸: self-drawn, natural, at least one chow.
    PinghuZimo,
    /// #14 清豪华七对.
    QingHaohuaQidui,
    /// #12 清七对.
    QingQidui,
    /// #13 豪华七对.
    HaohuaQidui,
    /// #11 七对.
    Qidui,
    /// #16 七星十三浪.
    QixingShisanlang,
    /// #15 十三浪.
    Shisanlang,
    /// #18 七星九幺.
    QixingJiuyao,
    /// #17 九幺.
    Jiuyao,
    /// D-24 平糊: any other basic-form win.
    Pinghu,
    /// #21 接宝 (special win).
    Jiebao,
    /// #22 四个宝 (special win).
    Sigebao,
}

impl Form {
    /// Every form, in tie-break order (the first of equal values is the label).
    pub const ALL: [Form; 17] = [
        Form::Baodiaotou,
        Form::Baodiaobao,
        Form::BaodiaoWubao,
        Form::QingPengpeng,
        Form::Pengpeng,
        Form::PinghuZimo,
        Form::QingHaohuaQidui,
        Form::QingQidui,
        Form::HaohuaQidui,
        Form::Qidui,
        Form::QixingShisanlang,
        Form::Shisanlang,
        Form::QixingJiuyao,
        Form::Jiuyao,
        Form::Pinghu,
        Form::Jiebao,
        Form::Sigebao,
    ];

    /// The form's key (its option name without `form_` / `special_`).
    pub fn key(self) -> &'static str {
        match self {
            Form::Baodiaotou => "baodiaotou",
            Form::Baodiaobao => "baodiaobao",
            Form::BaodiaoWubao => "baodiao_wubao",
            Form::QingPengpeng => "qing_pengpeng",
            Form::Pengpeng => "pengpeng",
            Form::PinghuZimo => "pinghu_zimo",
            Form::QingHaohuaQidui => "qing_haohua_qidui",
            Form::QingQidui => "qing_qidui",
            Form::HaohuaQidui => "haohua_qidui",
            Form::Qidui => "qidui",
            Form::QixingShisanlang => "qixing_shisanlang",
            Form::Shisanlang => "shisanlang",
            Form::QixingJiuyao => "qixing_jiuyao",
            Form::Jiuyao => "jiuyao",
            Form::Pinghu => "pinghu",
            Form::Jiebao => "jiebao",
            Form::Sigebao => "sigebao",
        }
    }

    /// The Chinese name.
    pub fn name_zh(self) -> &'static str {
        match self {
            Form::Baodiaotou => "宝吊头",
            Form::Baodiaobao => "宝吊宝",
            Form::BaodiaoWubao => "宝吊无宝",
            Form::QingPengpeng => "清碰碰糊",
            Form::Pengpeng => "碰碰糊",
            Form::PinghuZimo => "平糊自摸",
            Form::QingHaohuaQidui => "清豪华七对",
            Form::QingQidui => "清七对",
            Form::HaohuaQidui => "豪华七对",
            Form::Qidui => "七对",
            Form::QixingShisanlang => "七星十三浪",
            Form::Shisanlang => "十三浪",
            Form::QixingJiuyao => "七星九幺",
            Form::Jiuyao => "九幺",
            Form::Pinghu => "平糊",
            Form::Jiebao => "接宝",
            Form::Sigebao => "四个宝",
        }
    }

    /// True for the two instant wins (接宝, 四个宝).
    pub fn is_special(self) -> bool {
        matches!(self, Form::Jiebao | Form::Sigebao)
    }

    /// The form's value under `o`.
    pub fn value(self, o: &HuainanOptions) -> u32 {
        match self {
            Form::Baodiaotou => o.form_baodiaotou,
            Form::Baodiaobao => o.form_baodiaobao,
            Form::BaodiaoWubao => o.form_baodiao_wubao,
            Form::QingPengpeng => o.form_qing_pengpeng,
            Form::Pengpeng => o.form_pengpeng,
            Form::PinghuZimo => o.form_pinghu_zimo,
            Form::QingHaohuaQidui => o.form_qing_haohua_qidui,
            Form::QingQidui => o.form_qing_qidui,
            Form::HaohuaQidui => o.form_haohua_qidui,
            Form::Qidui => o.form_qidui,
            Form::QixingShisanlang => o.form_qixing_shisanlang,
            Form::Shisanlang => o.form_shisanlang,
            Form::QixingJiuyao => o.form_qixing_jiuyao,
            Form::Jiuyao => o.form_jiuyao,
            Form::Pinghu => o.form_pinghu,
            Form::Jiebao => o.special_jiebao,
            Form::Sigebao => o.special_sigebao,
        }
    }

    /// Parses a key.
    pub fn parse(s: &str) -> MjResult<Self> {
        Form::ALL
            .iter()
            .copied()
            .find(|f| f.key() == s)
            .ok_or_else(|| MjError::hand(format!("unknown Huainan form {s:?}")))
    }
}

/// A multiplier (§10.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Multiplier {
    /// #7 偷机: a 宝吊头 win after declining at least one.
    Touji,
    /// #2 天糊.
    Tianhu,
    /// #3 地糊.
    Dihu,
    /// #4 杠开.
    Gangkai,
    /// #20 抢杠.
    Qianggang,
    /// #23 单吊.
    Dandiao,
    /// #10 飞宝, per 宝 discarded.
    Feibao,
}

impl Multiplier {
    /// The key.
    pub fn key(self) -> &'static str {
        match self {
            Multiplier::Touji => "touji",
            Multiplier::Tianhu => "tianhu",
            Multiplier::Dihu => "dihu",
            Multiplier::Gangkai => "gangkai",
            Multiplier::Qianggang => "qianggang",
            Multiplier::Dandiao => "dandiao",
            Multiplier::Feibao => "feibao",
        }
    }
    /// The Chinese name.
    pub fn name_zh(self) -> &'static str {
        match self {
            Multiplier::Touji => "偷机",
            Multiplier::Tianhu => "天糊",
            Multiplier::Dihu => "地糊",
            Multiplier::Gangkai => "杠开",
            Multiplier::Qianggang => "抢杠",
            Multiplier::Dandiao => "单吊",
            Multiplier::Feibao => "飞宝",
        }
    }
}

/// The facts of a win the forms need besides the tiles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WinFacts {
    /// Self-drawn (天糊 and 杠开 included); false for a discard win or a robbed kong.
    pub self_drawn: bool,
    /// The winning tile is the replacement drawn after the winner's own kong (杠开).
    pub replacement: bool,
    /// The winning tile was robbed from another player's added kong (抢杠).
    pub robbed_kong: bool,
    /// The dealer's 14 dealt tiles, first decision (天糊).
    pub heavenly: bool,
    /// 地糊 as `dihu_definition` defines it.
    pub earthly: bool,
    /// 宝 tiles the winner discarded this hand (飞宝).
    pub bao_discarded: u8,
    /// Declined wins in the 宝吊头 state (偷机 when a 宝吊头 win follows).
    pub passes: u8,
}

/// The value of a win.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Score {
    /// The primary form (or the special win).
    pub form: Form,
    /// Its value.
    pub form_value: u32,
    /// The multipliers that apply, each with its total factor (飞宝 2^f, 偷机 2 or 2^passes).
    pub multipliers: Vec<(Multiplier, u64)>,
    /// `base × form × multipliers`, before the cap.
    pub raw_value: u64,
    /// What one payer pays this winner: the raw value capped at `cap`.
    pub value: u64,
}

fn cap(v: u64, o: &HuainanOptions) -> u64 {
    if o.cap == 0 {
        v
    } else {
        v.min(o.cap as u64)
    }
}

/// The value of a special win (接宝 or 四个宝), fixed; nothing else is added.
pub fn special(form: Form, o: &HuainanOptions) -> MjResult<Score> {
    let enabled = match form {
        Form::Jiebao => o.jiebao,
        Form::Sigebao => o.sigebao,
        other => {
            return Err(MjError::hand(format!(
                "{} is not a special win",
                other.key()
            )))
        }
    };
    if !enabled {
        return Err(MjError::NotWinning(format!(
            "{} is switched off in these rules",
            form.key()
        )));
    }
    let v = form.value(o) as u64 * o.base_points as u64;
    Ok(Score {
        form,
        form_value: form.value(o),
        multipliers: Vec::new(),
        raw_value: v,
        value: cap(v, o),
    })
}

fn not_winning(msg: impl Into<String>) -> MjError {
    MjError::NotWinning(msg.into())
}

/// Why [`score`] turns a hand down, kept without any text: the hot paths of play only ask
/// whether a hand wins, and [`Reject::explain`] words the reason for the checked API.
#[derive(Debug)]
enum Reject {
    /// The tiles themselves are inconsistent (as `check_hand` words it).
    Tiles(MjError),
    /// The 宝 face is a flower or no tile.
    BadBao,
    /// Not 14 − 3k concealed tiles.
    Size,
    /// Meld `i` holds the 宝.
    BaoInMeld(usize),
    /// Inconsistent facts of the win.
    Facts(&'static str),
    /// More than four 宝 discarded.
    BaoDiscarded,
    /// No winning tile and no 天糊.
    NoWinTile,
    /// The winning tile is not in the hand.
    WinTileAbsent(Tile),
    /// A robbed 宝 while a 宝 never goes into a kong.
    RobbedBao,
    /// Discard wins are switched off.
    DiscardWinsOff,
    /// A discarded 宝 (only 接宝 takes it).
    DiscardedBao,
    /// A discard win while holding a 宝.
    HoldingBao,
    /// No winning shape.
    NoShape,
    /// A plain hand on a discard when `plain_discard_win` is off.
    PlainOnDiscard,
}

impl Reject {
    /// The error [`score`] reports for this reason.
    fn explain(self, concealed: &Counts, melds: &[Meld], bao: Tile, facts: &WinFacts) -> MjError {
        match self {
            Reject::Tiles(e) => e,
            Reject::BadBao => MjError::hand(format!(
                "the 宝 must be a suited or honour tile, got code {bao}"
            )),
            Reject::Size => {
                let n: u32 = concealed.iter().map(|&c| c as u32).sum();
                MjError::hand(format!(
                    "a finished hand has {} concealed tiles with {} meld(s), got {n}",
                    14 - 3 * melds.len(),
                    melds.len()
                ))
            }
            Reject::BaoInMeld(i) => MjError::hand(format!(
                "meld {} holds the 宝 {}: a 宝 never goes into a meld (bao_in_melds)",
                melds[i].notation(),
                tile::name(bao)
            )),
            Reject::Facts(m) => MjError::hand(m.to_string()),
            Reject::BaoDiscarded => MjError::hand(format!(
                "{} 宝 discarded: there are four",
                facts.bao_discarded
            )),
            Reject::NoWinTile => MjError::hand("only 天糊 has no winning tile"),
            Reject::WinTileAbsent(t) => MjError::hand(format!(
                "the winning tile {} is not in the hand",
                if tile::is_valid(t) {
                    tile::name(t)
                } else {
                    format!("code {t}")
                }
            )),
            Reject::RobbedBao => {
                MjError::hand("a 宝 never goes into a kong, so it cannot be robbed")
            }
            Reject::DiscardWinsOff => {
                not_winning("discard wins are switched off (discard_wins = none)")
            }
            Reject::DiscardedBao => not_winning("a discarded 宝 can only be caught by 接宝"),
            Reject::HoldingBao => not_winning(format!(
                "a player holding a 宝 ({}) wins only by self-draw or robbing a kong",
                tile::name(bao)
            )),
            Reject::NoShape => not_winning(format!(
                "{}{} is not a winning shape with 宝 {}",
                tile::format_counts(concealed),
                melds
                    .iter()
                    .map(|m| format!(" [{}]", m.notation()))
                    .collect::<String>(),
                tile::name(bao)
            )),
            Reject::PlainOnDiscard => {
                not_winning("a plain hand cannot win on a discard (plain_discard_win = false)")
            }
        }
    }
}

/// True when `hand::check_hand` finds a full hand: at most four melds, no fifth copy
/// between the hand and its melds, 14 − 3k concealed tiles. One pass, for the hot path;
/// any other answer goes to `check_hand` for its reason.
fn full_hand(concealed: &Counts, melds: &[Meld]) -> bool {
    if melds.len() > 4 {
        return false;
    }
    let mut all = *concealed;
    for m in melds {
        m.add_to(&mut all);
    }
    let mut n = 0u32;
    let mut over = false;
    for (&c, &a) in concealed.iter().zip(all.iter()) {
        n += c as u32;
        over |= a > 4;
    }
    !over && n as usize == 14 - 3 * melds.len()
}

/// Whether meld `m` holds a copy of `t` (as `m.tiles().contains(&t)`, without the list).
fn meld_holds(m: &Meld, t: Tile) -> bool {
    match m.kind {
        MeldKind::Chow => (m.tile..=m.tile.saturating_add(2)).contains(&t),
        _ => m.tile == t,
    }
}

fn check_facts(f: &WinFacts, melds: &[Meld], o: &HuainanOptions) -> Result<(), Reject> {
    let bad = |m: &'static str| Err(Reject::Facts(m));
    if f.robbed_kong && f.self_drawn {
        return bad("a robbed kong is not a self-drawn win");
    }
    if f.replacement && !f.self_drawn {
        return bad("a win on a kong replacement (杠开) is self-drawn");
    }
    if f.heavenly && (!f.self_drawn || f.replacement || !melds.is_empty()) {
        return bad(
            "天糊 is the dealer's self-drawn win on the 14 dealt tiles, without melds or kongs",
        );
    }
    if f.earthly {
        if f.heavenly {
            return bad("a win cannot be both 天糊 and 地糊");
        }
        match o.dihu_definition {
            DihuDefinition::DealerFirstDiscard if f.self_drawn || f.robbed_kong => {
                return bad("地糊 is a win on the dealer's first discard (dihu_definition)");
            }
            DihuDefinition::FirstSelfDraw if !f.self_drawn || f.replacement => {
                return bad(
                    "地糊 is a non-dealer's self-drawn win on the first draw (dihu_definition)",
                );
            }
            _ => {}
        }
    }
    if f.bao_discarded > 4 {
        return Err(Reject::BaoDiscarded);
    }
    Ok(())
}

/// Scores a finished hand.
///
/// `concealed` holds the concealed tiles *including* the winning tile, `melds` the declared
/// melds (concealed kongs included), `win_tile` the winning tile (`None` only for 天糊),
/// `bao` the 宝 face. Fails with `InvalidHand` on inconsistent tiles or facts and with
/// `NotWinning` when the tiles make no valid shape or the win is not allowed (a discard win
/// while holding a 宝, a discarded 宝, discard wins switched off, a plain discard win when
/// `plain_discard_win` is off).
pub fn score(
    concealed: &Counts,
    melds: &[Meld],
    win_tile: Option<Tile>,
    bao: Tile,
    facts: &WinFacts,
    o: &HuainanOptions,
) -> MjResult<Score> {
    evaluate(concealed, melds, win_tile, bao, facts, o)
        .map_err(|r| r.explain(concealed, melds, bao, facts))
}

/// [`score`] without the reason of a refusal: `Some` exactly when [`score`] is `Ok`, with
/// the same value. Builds no message, so a hand that does not win costs no allocation.
pub fn score_if_winning(
    concealed: &Counts,
    melds: &[Meld],
    win_tile: Option<Tile>,
    bao: Tile,
    facts: &WinFacts,
    o: &HuainanOptions,
) -> Option<Score> {
    if !wild::may_win(
        concealed,
        melds.len(),
        bao,
        o.bao_wild_in_13lang,
        o.bao_wild_in_jiuyao,
    ) {
        return None;
    }
    evaluate(concealed, melds, win_tile, bao, facts, o).ok()
}

fn evaluate(
    concealed: &Counts,
    melds: &[Meld],
    win_tile: Option<Tile>,
    bao: Tile,
    facts: &WinFacts,
    o: &HuainanOptions,
) -> Result<Score, Reject> {
    if tile::is_flower(bao) || !tile::is_valid(bao) {
        return Err(Reject::BadBao);
    }
    if !full_hand(concealed, melds) {
        match hand::check_hand(concealed, melds) {
            Ok(HandSize::Full) => {}
            Ok(HandSize::Waiting) => return Err(Reject::Size),
            Err(e) => return Err(Reject::Tiles(e)),
        }
    }
    if !o.bao_in_melds {
        if let Some(i) = melds.iter().position(|m| meld_holds(m, bao)) {
            return Err(Reject::BaoInMeld(i));
        }
    }
    check_facts(facts, melds, o)?;
    match win_tile {
        None if !facts.heavenly => return Err(Reject::NoWinTile),
        Some(t) if !tile::is_valid(t) || tile::is_flower(t) || concealed[t as usize] == 0 => {
            return Err(Reject::WinTileAbsent(t));
        }
        _ => {}
    }
    let discard_win = !facts.self_drawn && !facts.robbed_kong;
    if facts.robbed_kong && win_tile == Some(bao) && !o.bao_in_melds {
        return Err(Reject::RobbedBao);
    }
    if discard_win {
        let t = win_tile.unwrap_or(bao);
        if o.discard_wins == DiscardWins::Never {
            return Err(Reject::DiscardWinsOff);
        }
        if t == bao {
            return Err(Reject::DiscardedBao);
        }
        if o.discard_win_requires_no_bao && concealed[bao as usize] > 0 {
            return Err(Reject::HoldingBao);
        }
    }

    let k = melds.len();
    let wild = Wild::new(concealed, Some(bao));
    let limit_store;
    let limit = if o.bao_wild_fifth_copy {
        None
    } else {
        limit_store = wild::hand_limit(&wild.nat, melds);
        Some(&limit_store)
    };
    let basic_any = wild::split(&wild.nat, wild.w, true, Sets::Any, limit);
    // Every basic-form reading below implies `basic_any`; most hands fail it at once.
    let basic_nat = basic_any && wild::split(concealed, 0, true, Sets::Any, None);
    let pungs_ok = basic_any && wild::melds_all_pungs(melds);
    let nat_pungs = pungs_ok && basic_nat && wild::split(concealed, 0, true, Sets::PungsOnly, None);
    let wild_pungs =
        pungs_ok && !nat_pungs && wild::split(&wild.nat, wild.w, true, Sets::PungsOnly, limit);
    let nat_chow = basic_nat
        && (wild::melds_have_chow(melds) || wild::split(concealed, 0, true, Sets::WithChow, None));
    let bdt = match win_tile {
        Some(t) if basic_any && !facts.heavenly => {
            let mut before = *concealed;
            before[t as usize] -= 1;
            wild::is_bdt(&before, bao, limit)
        }
        _ => false,
    };

    let mut cands: [Option<Form>; 8] = [None; 8];
    if bdt {
        cands[0] = Some(if facts.self_drawn && win_tile == Some(bao) {
            Form::Baodiaobao
        } else if facts.self_drawn && basic_nat {
            Form::BaodiaoWubao
        } else {
            Form::Baodiaotou
        });
    }
    if nat_pungs {
        cands[1] = Some(Form::QingPengpeng);
    }
    if wild_pungs && !bdt {
        cands[2] = Some(Form::Pengpeng);
    }
    if facts.self_drawn && nat_chow {
        cands[3] = Some(Form::PinghuZimo);
    }
    if k == 0 {
        let sp = wild::seven_pairs(concealed, Some(bao));
        cands[4] = if sp.natural {
            Some(if sp.natural_luxury {
                Form::QingHaohuaQidui
            } else {
                Form::QingQidui
            })
        } else if sp.any {
            Some(if sp.any_luxury {
                Form::HaohuaQidui
            } else {
                Form::Qidui
            })
        } else {
            None
        };
        let lang = if o.bao_wild_in_13lang {
            wild::shisanlang_win(&wild.nat, wild.w)
        } else {
            wild::shisanlang_win(concealed, 0)
        };
        if let Some(qixing) = lang {
            cands[5] = Some(if qixing {
                Form::QixingShisanlang
            } else {
                Form::Shisanlang
            });
        }
    }
    let jy = if o.bao_wild_in_jiuyao {
        wild::jiuyao(&wild.nat, wild.w, melds, o.jiuyao_allows_pung_melds)
    } else {
        wild::jiuyao(concealed, 0, melds, o.jiuyao_allows_pung_melds)
    };
    if jy.win {
        cands[6] = Some(if jy.qixing && o.qixing_jiuyao_all_honors {
            Form::QixingJiuyao
        } else {
            Form::Jiuyao
        });
    }
    if basic_any {
        cands[7] = Some(Form::Pinghu);
    }
    let mut best: Option<Form> = None;
    for f in cands.iter().flatten() {
        if best.map_or(true, |b| f.value(o) > b.value(o)) {
            best = Some(*f);
        }
    }
    let Some(form) = best else {
        return Err(Reject::NoShape);
    };
    let form_value = form.value(o);
    if discard_win && !o.plain_discard_win && form_value < 2 {
        return Err(Reject::PlainOnDiscard);
    }

    let mut multipliers: Vec<(Multiplier, u64)> = Vec::new();
    // Each entry: (multiplier, factor per occurrence, occurrences).
    let mut parts: [(Multiplier, u64, u32); 7] = [(Multiplier::Touji, 1, 0); 7];
    let mut n = 0;
    let mut push = |m: Multiplier, factor: u32, times: u32| {
        if times > 0 {
            parts[n] = (m, factor as u64, times);
            n += 1;
        }
    };
    if bdt && facts.passes >= 1 {
        push(
            Multiplier::Touji,
            o.mult_touji,
            if o.touji_per_pass {
                facts.passes as u32
            } else {
                1
            },
        );
    }
    push(Multiplier::Tianhu, o.mult_tianhu, facts.heavenly as u32);
    push(Multiplier::Dihu, o.mult_dihu, facts.earthly as u32);
    push(
        Multiplier::Gangkai,
        o.mult_gangkai,
        facts.replacement as u32,
    );
    push(
        Multiplier::Qianggang,
        o.mult_qianggang,
        facts.robbed_kong as u32,
    );
    push(Multiplier::Dandiao, o.mult_dandiao, (k == 4) as u32);
    push(
        Multiplier::Feibao,
        o.mult_feibao_each,
        facts.bao_discarded as u32,
    );
    let base = o.base_points as u64 * form_value as u64;
    let raw_value = match o.scoring_mode {
        ScoringMode::Multiplicative => {
            let mut v = base;
            for &(_, f, t) in &parts[..n] {
                v = v.saturating_mul(f.saturating_pow(t));
            }
            v
        }
        ScoringMode::Additive => {
            let mut add = 1u64;
            for &(_, f, t) in &parts[..n] {
                add = add.saturating_add(f.saturating_sub(1).saturating_mul(t as u64));
            }
            base.saturating_mul(add)
        }
    };
    for &(m, f, t) in &parts[..n] {
        multipliers.push((m, f.saturating_pow(t)));
    }
    Ok(Score {
        form,
        form_value,
        multipliers,
        raw_value,
        value: cap(raw_value, o),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }
    fn o() -> HuainanOptions {
        HuainanOptions::default()
    }
    fn zimo() -> WinFacts {
        WinFacts {
            self_drawn: true,
            ..Default::default()
        }
    }
    fn ron() -> WinFacts {
        WinFacts::default()
    }
    fn sc(hand: &str, melds: &[Meld], win: &str, bao: &str, f: WinFacts) -> MjResult<Score> {
        score(&c(hand), melds, Some(t(win)), t(bao), &f, &o())
    }
    fn mults(s: &Score) -> Vec<&'static str> {
        s.multipliers.iter().map(|(m, _)| m.key()).collect()
    }

    #[test]
    fn h1_h2_plain() {
        let s = sc("123m456m789s234p99s", &[], "9s", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::PinghuZimo, 2));
        let s = sc("123m456m789s234p99s", &[], "9s", "5p", ron()).unwrap();
        assert_eq!((s.form, s.value), (Form::Pinghu, 1));
    }

    #[test]
    fn h3_holding_a_bao() {
        let e = sc("123m456m789s23p99s5p", &[], "9s", "5p", ron()).unwrap_err();
        assert!(matches!(e, MjError::NotWinning(_)) && e.message().contains("holding a 宝"));
        let s = sc("123m456m789s23p99s5p", &[], "9s", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Pinghu, 1));
        // Winning on 1p or on a drawn 宝 also works.
        assert!(sc("123m456m789s123p9s5p", &[], "1p", "5p", zimo()).is_ok());
        assert!(sc("123m456m789s23p9s55p", &[], "5p", "5p", zimo()).is_ok());
    }

    #[test]
    fn h4_h5_bdt() {
        let s = sc("5p123m456m789s234s7z", &[], "7z", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Baodiaotou, 2));
        let f = WinFacts {
            passes: 1,
            ..zimo()
        };
        let s = sc("55p123m456m789s234s", &[], "5p", "5p", f).unwrap();
        assert_eq!((s.form, s.value), (Form::Baodiaobao, 8));
        assert_eq!(mults(&s), ["touji"]);
        let f = WinFacts {
            passes: 3,
            ..zimo()
        };
        let mut per_pass = o();
        per_pass.touji_per_pass = true;
        let s2 = score(
            &c("55p123m456m789s234s"),
            &[],
            Some(t("5p")),
            t("5p"),
            &f,
            &per_pass,
        )
        .unwrap();
        assert_eq!(s2.value, 32);
    }

    #[test]
    fn h6_h7_baodiao_wubao() {
        let s = sc("5p123m456m789m5p678s", &[], "8s", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::BaodiaoWubao, 4));
        let s = sc("5p123m456m789m5p567s", &[], "5s", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::BaodiaoWubao, 4));
        let s = sc("5p123m456m789m5p67s2z", &[], "2z", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Baodiaotou, 2));
        let s = sc("555p123m456m789m77s", &[], "7s", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::BaodiaoWubao, 4));
    }

    #[test]
    fn h8_h9_pengpeng() {
        let melds = [Meld::pung(t("1m")).unwrap(), Meld::pung(t("9p")).unwrap()];
        let s = sc("222s55z3z66z", &melds, "6z", "3z", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Pengpeng, 2));
        let s = sc("222s55z66z5z", &melds, "5z", "3z", ron()).unwrap();
        assert_eq!((s.form, s.value), (Form::QingPengpeng, 4));
    }

    #[test]
    fn h10_h11_seven_pairs() {
        let s = sc("11m33m55p77p22s44s66z", &[], "6z", "9m", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::QingQidui, 8));
        let s = sc("11m33m55p77p22s44s66z", &[], "6z", "9m", ron()).unwrap();
        assert_eq!((s.form, s.value), (Form::QingQidui, 8));
        let s = sc("11m33m55p77p22s44s6z9m", &[], "6z", "9m", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Qidui, 4));
        let s = sc("1111m33m55p77p22s4s9m", &[], "4s", "9m", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::HaohuaQidui, 8));
        let s = sc("1111m33m55p77p22s44s", &[], "4s", "9m", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::QingHaohuaQidui, 16));
    }

    #[test]
    fn h12_h13_specials() {
        let s = sc("147m258p369s12345z", &[], "5z", "9m", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Shisanlang, 2));
        let s = sc("147m25p36s1234567z", &[], "7z", "9m", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::QixingShisanlang, 4));
        let s = sc("147m258p36s2m12345z", &[], "2m", "2m", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Shisanlang, 2));
        assert!(sc("147m248p369s12345z", &[], "5z", "9m", zimo()).is_err());
        let s = sc("119m199p19s113567z", &[], "7z", "5s", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Jiuyao, 4));
        let s = sc("119m19p19s1234567z", &[], "7z", "5s", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::QixingJiuyao, 8));
    }

    #[test]
    fn h14_dandiao() {
        let melds = [
            Meld::chow(t("1m")).unwrap(),
            Meld::pung(t("4p")).unwrap(),
            Meld::pung(t("7s")).unwrap(),
            Meld::chow(t("7p")).unwrap(),
        ];
        let s = sc("33z", &melds, "3z", "5s", ron()).unwrap();
        assert_eq!((s.form, s.value), (Form::Pinghu, 2));
        assert_eq!(mults(&s), ["dandiao"]);
        let s = sc("33z", &melds, "3z", "5s", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::PinghuZimo, 4));
        let s = sc("5p3z", &melds, "3z", "5p", zimo()).unwrap();
        assert_eq!((s.form, s.value), (Form::Baodiaotou, 4));
    }

    #[test]
    fn h15_robbing() {
        let rob = WinFacts {
            robbed_kong: true,
            ..Default::default()
        };
        let s = sc("5p123m456m789p234s8s", &[], "8s", "5p", rob).unwrap();
        assert_eq!((s.form, s.value), (Form::Baodiaotou, 4));
        let s = sc("11z234p678p789m789s", &[], "8s", "5p", rob).unwrap();
        assert_eq!((s.form, s.value), (Form::Pinghu, 2));
    }

    #[test]
    fn h16_to_h18_multipliers() {
        let f = WinFacts {
            heavenly: true,
            ..zimo()
        };
        let s = score(&c("123m456m78m5p234s11z"), &[], None, t("5p"), &f, &o()).unwrap();
        assert_eq!((s.form, s.value), (Form::Pinghu, 8));
        let f = WinFacts {
            earthly: true,
            ..ron()
        };
        let s = sc("11m33m55p77p22s44s66z", &[], "6z", "9m", f).unwrap();
        assert_eq!((s.raw_value, s.value), (64, 64));
        let f = WinFacts {
            replacement: true,
            bao_discarded: 1,
            ..zimo()
        };
        let melds = [Meld::concealed_kong(t("7z")).unwrap()];
        let s = sc("123m456p789s99m", &melds, "9s", "3s", f).unwrap();
        assert_eq!((s.form, s.value), (Form::PinghuZimo, 8));
        assert_eq!(mults(&s), ["gangkai", "feibao"]);
    }

    #[test]
    fn h19_specials_and_cap() {
        assert_eq!(special(Form::Jiebao, &o()).unwrap().value, 16);
        assert_eq!(special(Form::Sigebao, &o()).unwrap().value, 16);
        let mut off = o();
        off.jiebao = false;
        assert!(special(Form::Jiebao, &off).is_err());
        assert!(special(Form::Pinghu, &o()).is_err());
    }

    #[test]
    fn facts_are_checked() {
        let bad = WinFacts {
            robbed_kong: true,
            self_drawn: true,
            ..Default::default()
        };
        assert!(matches!(
            sc("123m456m789s234p99s", &[], "9s", "5p", bad),
            Err(MjError::InvalidHand(_))
        ));
        assert!(sc("123m456m789s234p99s", &[], "5z", "5p", zimo()).is_err());
        assert!(sc("123m456m789s234p9s", &[], "9s", "5p", zimo()).is_err());
        let melds = [Meld::pung(t("5p")).unwrap()];
        assert!(sc("123m456m789s99s", &melds, "9s", "5p", zimo())
            .unwrap_err()
            .message()
            .contains("meld"));
        assert!(sc("123m456m789s234p55p", &[], "5p", "5p", ron())
            .unwrap_err()
            .message()
            .contains("接宝"));
    }

    #[test]
    fn additive_mode() {
        let mut a = o();
        a.scoring_mode = ScoringMode::Additive;
        let f = WinFacts {
            replacement: true,
            bao_discarded: 1,
            ..zimo()
        };
        let melds = [Meld::concealed_kong(t("7z")).unwrap()];
        let s = score(
            &c("123m456p789s99m"),
            &melds,
            Some(t("9s")),
            t("3s"),
            &f,
            &a,
        )
        .unwrap();
        // 2 + (2-1)*2 + (2-1)*2 = 6.
        assert_eq!(s.value, 6);
    }

    #[test]
    fn quiet_scoring_agrees_with_the_checked_api() {
        let mut x = 3u64;
        let mut below = |n: u32| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % n as u64) as u32
        };
        let mut variants = [o(), o(), o(), o()];
        variants[1].bao_wild_fifth_copy = false;
        variants[1].bao_in_melds = true;
        variants[2].plain_discard_win = false;
        variants[2].bao_wild_in_13lang = false;
        variants[2].bao_wild_in_jiuyao = false;
        variants[3].discard_wins = DiscardWins::Never;
        variants[3].discard_win_requires_no_bao = false;
        variants[3].dihu_definition = DihuDefinition::FirstSelfDraw;
        let (mut wins, mut refused) = (0, 0);
        for _ in 0..30_000 {
            let bao = below(34) as Tile;
            let mut melds = Vec::new();
            for _ in 0..below(5) {
                let f = below(34) as Tile;
                let m = match below(4) {
                    0 if f < 27 && f % 9 < 7 => Meld::chow(f),
                    1 => Meld::kong(f),
                    2 => Meld::concealed_kong(f),
                    _ => Meld::pung(f),
                };
                melds.push(m.unwrap());
            }
            // Sets and a pair, then some tiles turned into the 宝, sometimes one more or less.
            let mut hand = [0u8; 34];
            for _ in melds.len()..4 {
                let f = below(34) as usize;
                if below(2) == 0 && f < 27 && f % 9 < 7 {
                    (f..f + 3).for_each(|g| hand[g] += 1);
                } else {
                    hand[f] += 3;
                }
            }
            hand[below(34) as usize] += 2;
            for _ in 0..below(4) {
                let f = below(34) as usize;
                if hand[f] > 0 {
                    hand[f] -= 1;
                    hand[bao as usize] += 1;
                }
            }
            match below(8) {
                0 => hand[below(34) as usize] += 1,
                1 => {
                    let f = below(34) as usize;
                    hand[f] = hand[f].saturating_sub(1);
                }
                2 => {
                    let (a, b) = (below(34) as usize, below(34) as usize);
                    if hand[a] > 0 {
                        hand[a] -= 1;
                        hand[b] += 1;
                    }
                }
                _ => {}
            }
            let held: Vec<Tile> = (0..34u8).filter(|&t| hand[t as usize] > 0).collect();
            let win = match below(10) {
                0 => None,
                1 => Some(below(34) as Tile),
                _ if !held.is_empty() => Some(held[below(held.len() as u32) as usize]),
                _ => Some(bao),
            };
            let way = below(3);
            let facts = WinFacts {
                self_drawn: way == 0,
                robbed_kong: way == 2,
                replacement: way == 0 && below(6) == 0,
                heavenly: win.is_none() || below(20) == 0,
                earthly: below(20) == 0,
                bao_discarded: below(6) as u8 * (below(3) == 0) as u8,
                passes: below(3) as u8,
            };
            let opts = &variants[below(4) as usize];
            assert_eq!(
                full_hand(&hand, &melds),
                matches!(hand::check_hand(&hand, &melds), Ok(HandSize::Full)),
                "{hand:?} {melds:?}"
            );
            let checked = score(&hand, &melds, win, bao, &facts, opts);
            let quiet = score_if_winning(&hand, &melds, win, bao, &facts, opts);
            assert_eq!(
                quiet,
                checked.clone().ok(),
                "{hand:?} {melds:?} {win:?} {bao} {facts:?}"
            );
            match checked {
                Ok(_) => wins += 1,
                Err(e) => {
                    assert!(!e.message().is_empty());
                    refused += 1;
                }
            }
        }
        assert!(
            wins > 3_000 && refused > 3_000,
            "{wins} wins, {refused} refusals"
        );
    }
}
