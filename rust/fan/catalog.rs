//! The fan catalog: one data table with every scoring element.
//!
//! Ids 1-81 are the MCR fan numbers (花牌 = 81), 82 is the reference calculator's 5-fan
//! 明暗杠 and 83 is ClassicFour's 1-fan 听牌 (declared ready). Names are PyMahjongGB 1.4.0's
//! (English and Chinese), so results compare row for row with the reference.
//!
//! `excludes` lists the fans that are struck when this fan is present (不计). Fans that can
//! never be detected together with it, because the detectors already read the tiles one way
//! only (清一色 never also finds 缺一门, a four-chow fan never also finds a three-chow fan),
//! are not repeated there. Two partial exclusions are applied in code: 三风刻 removes the
//! 幺九刻 of its three wind pungs only, and a seat or prevalent wind pung replaces that
//! pung's 幺九刻.

/// A fan: an id into [`CATALOG`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Fan(pub u8);

/// One row of the catalog.
#[derive(Debug, Clone, Copy)]
pub struct FanInfo {
    /// The id (MCR number, 82 明暗杠, 83 听牌).
    pub id: u8,
    /// Chinese name as PyMahjongGB writes it.
    pub name_zh: &'static str,
    /// English name as PyMahjongGB writes it.
    pub name_en: &'static str,
    /// Points for one occurrence.
    pub points: u8,
    /// Fans not also counted when this one is present.
    pub excludes: &'static [u8],
}

/// Number of slots in a fan table (index 0 unused).
pub const N_FANS: usize = 84;

macro_rules! fans {
    ($($id:literal $konst:ident $zh:literal $en:literal $pts:literal [$($ex:ident),*];)*) => {
        $(
            #[doc = concat!($zh, " (", $en, ")")]
            pub const $konst: Fan = Fan($id);
        )*
        /// Every fan, indexed by id (row 0 is a placeholder).
        pub const CATALOG: [FanInfo; N_FANS] = {
            let mut t = [FanInfo { id: 0, name_zh: "", name_en: "", points: 0, excludes: &[] }; N_FANS];
            $( t[$id] = FanInfo { id: $id, name_zh: $zh, name_en: $en, points: $pts, excludes: &[$($ex.0),*] }; )*
            t
        };
    };
}

fans! {
    1 BIG_FOUR_WINDS "大四喜" "Big Four Winds" 88 [ALL_PUNGS, PUNG_OF_TERMINALS_OR_HONORS, BIG_THREE_WINDS, LITTLE_FOUR_WINDS];
    2 BIG_THREE_DRAGONS "大三元" "Big Three Dragons" 88 [DRAGON_PUNG, TWO_DRAGONS_PUNGS, LITTLE_THREE_DRAGONS];
    3 ALL_GREEN "绿一色" "All Green" 88 [HALF_FLUSH, ONE_VOIDED_SUIT];
    4 NINE_GATES "九莲宝灯" "Nine Gates" 88 [FULL_FLUSH, CONCEALED_HAND, FULLY_CONCEALED_HAND, ONE_VOIDED_SUIT, NO_HONORS];
    5 FOUR_KONGS "四杠" "Four Kongs" 88 [SINGLE_WAIT, THREE_KONGS, ALL_PUNGS, TWO_MELDED_KONGS, TWO_CONCEALED_KONGS, MELDED_KONG, CONCEALED_KONG, CONCEALED_KONG_AND_MELDED_KONG];
    6 SEVEN_SHIFTED_PAIRS "连七对" "Seven Shifted Pairs" 88 [SEVEN_PAIRS, FULL_FLUSH, CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT, ONE_VOIDED_SUIT, NO_HONORS];
    7 THIRTEEN_ORPHANS "十三幺" "Thirteen Orphans" 88 [ALL_TYPES, ALL_TERMINALS_AND_HONORS, CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT];
    8 ALL_TERMINALS "清幺九" "All Terminals" 64 [ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, NO_HONORS, DOUBLE_PUNG, ALL_TERMINALS_AND_HONORS];
    9 LITTLE_FOUR_WINDS "小四喜" "Little Four Winds" 64 [PUNG_OF_TERMINALS_OR_HONORS, BIG_THREE_WINDS];
    10 LITTLE_THREE_DRAGONS "小三元" "Little Three Dragons" 64 [DRAGON_PUNG, TWO_DRAGONS_PUNGS];
    11 ALL_HONORS "字一色" "All Honors" 64 [ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, ONE_VOIDED_SUIT, ALL_TERMINALS_AND_HONORS];
    12 FOUR_CONCEALED_PUNGS "四暗刻" "Four Concealed Pungs" 64 [ALL_PUNGS, CONCEALED_HAND, THREE_CONCEALED_PUNGS, TWO_CONCEALED_PUNGS];
    13 PURE_TERMINAL_CHOWS "一色双龙会" "Pure Terminal Chows" 64 [FULL_FLUSH, ALL_CHOWS, NO_HONORS, PURE_DOUBLE_CHOW, TWO_TERMINAL_CHOWS, SEVEN_PAIRS];
    14 QUADRUPLE_CHOW "一色四同顺" "Quadruple Chow" 48 [PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS, PURE_DOUBLE_CHOW, TILE_HOG, SEVEN_PAIRS];
    15 FOUR_PURE_SHIFTED_PUNGS "一色四节高" "Four Pure Shifted Pungs" 48 [ALL_PUNGS, PURE_SHIFTED_PUNGS, PURE_TRIPLE_CHOW];
    16 FOUR_PURE_SHIFTED_CHOWS "一色四步高" "Four Pure Shifted Chows" 32 [PURE_SHIFTED_CHOWS, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS];
    17 THREE_KONGS "三杠" "Three Kongs" 32 [TWO_MELDED_KONGS, MELDED_KONG, TWO_CONCEALED_KONGS, CONCEALED_KONG, CONCEALED_KONG_AND_MELDED_KONG];
    18 ALL_TERMINALS_AND_HONORS "混幺九" "All Terminals and Honors" 32 [ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS];
    19 SEVEN_PAIRS "七对" "Seven Pairs" 24 [CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT];
    20 GREATER_HONORS_AND_KNITTED_TILES "七星不靠" "Greater Honors and Knitted Tiles" 24 [LESSER_HONORS_AND_KNITTED_TILES, ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT];
    21 ALL_EVEN_PUNGS "全双刻" "All Even Pungs" 24 [ALL_PUNGS, ALL_SIMPLES, NO_HONORS];
    22 FULL_FLUSH "清一色" "Full Flush" 24 [ONE_VOIDED_SUIT, NO_HONORS];
    23 PURE_TRIPLE_CHOW "一色三同顺" "Pure Triple Chow" 24 [PURE_SHIFTED_PUNGS, PURE_DOUBLE_CHOW];
    24 PURE_SHIFTED_PUNGS "一色三节高" "Pure Shifted Pungs" 24 [PURE_TRIPLE_CHOW];
    25 UPPER_TILES "全大" "Upper Tiles" 24 [UPPER_FOUR, NO_HONORS];
    26 MIDDLE_TILES "全中" "Middle Tiles" 24 [ALL_SIMPLES, NO_HONORS];
    27 LOWER_TILES "全小" "Lower Tiles" 24 [LOWER_FOUR, NO_HONORS];
    28 PURE_STRAIGHT "清龙" "Pure Straight" 16 [SHORT_STRAIGHT, TWO_TERMINAL_CHOWS];
    29 THREE_SUITED_TERMINAL_CHOWS "三色双龙会" "Three-Suited Terminal Chows" 16 [MIXED_DOUBLE_CHOW, TWO_TERMINAL_CHOWS, ALL_CHOWS, NO_HONORS];
    30 PURE_SHIFTED_CHOWS "一色三步高" "Pure Shifted Chows" 16 [];
    31 ALL_FIVE "全带五" "All Five" 16 [ALL_SIMPLES, NO_HONORS];
    32 TRIPLE_PUNG "三同刻" "Triple Pung" 16 [DOUBLE_PUNG];
    33 THREE_CONCEALED_PUNGS "三暗刻" "Three Concealed Pungs" 16 [TWO_CONCEALED_PUNGS];
    34 LESSER_HONORS_AND_KNITTED_TILES "全不靠" "Lesser Honors and Knitted Tiles" 12 [ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT];
    35 KNITTED_STRAIGHT "组合龙" "Knitted Straight" 12 [];
    36 UPPER_FOUR "大于五" "Upper Four" 12 [NO_HONORS];
    37 LOWER_FOUR "小于五" "Lower Four" 12 [NO_HONORS];
    38 BIG_THREE_WINDS "三风刻" "Big Three Winds" 12 [];
    39 MIXED_STRAIGHT "花龙" "Mixed Straight" 8 [];
    40 REVERSIBLE_TILES "推不倒" "Reversible Tiles" 8 [ONE_VOIDED_SUIT];
    41 MIXED_TRIPLE_CHOW "三色三同顺" "Mixed Triple Chow" 8 [MIXED_DOUBLE_CHOW];
    42 MIXED_SHIFTED_PUNGS "三色三节高" "Mixed Shifted Pungs" 8 [];
    43 CHICKEN_HAND "无番和" "Chicken Hand" 8 [];
    44 LAST_TILE_DRAW "妙手回春" "Last Tile Draw" 8 [SELF_DRAWN];
    45 LAST_TILE_CLAIM "海底捞月" "Last Tile Claim" 8 [];
    46 OUT_WITH_REPLACEMENT_TILE "杠上开花" "Out with Replacement Tile" 8 [SELF_DRAWN];
    47 ROBBING_THE_KONG "抢杠和" "Robbing The Kong" 8 [LAST_TILE];
    48 ALL_PUNGS "碰碰和" "All Pungs" 6 [];
    49 HALF_FLUSH "混一色" "Half Flush" 6 [ONE_VOIDED_SUIT];
    50 MIXED_SHIFTED_CHOWS "三色三步高" "Mixed Shifted Chows" 6 [];
    51 ALL_TYPES "五门齐" "All Types" 6 [];
    52 MELDED_HAND "全求人" "Melded Hand" 6 [SINGLE_WAIT];
    53 TWO_CONCEALED_KONGS "双暗杠" "Two Concealed Kongs" 6 [CONCEALED_KONG];
    54 TWO_DRAGONS_PUNGS "双箭刻" "Two Dragons Pungs" 6 [DRAGON_PUNG];
    55 OUTSIDE_HAND "全带幺" "Outside Hand" 4 [];
    56 FULLY_CONCEALED_HAND "不求人" "Fully Concealed Hand" 4 [CONCEALED_HAND, SELF_DRAWN];
    57 TWO_MELDED_KONGS "双明杠" "Two Melded Kongs" 4 [MELDED_KONG];
    58 LAST_TILE "和绝张" "Last Tile" 4 [];
    59 DRAGON_PUNG "箭刻" "Dragon Pung" 2 [];
    60 PREVALENT_WIND "圈风刻" "Prevalent Wind" 2 [];
    61 SEAT_WIND "门风刻" "Seat Wind" 2 [];
    62 CONCEALED_HAND "门前清" "Concealed Hand" 2 [];
    63 ALL_CHOWS "平和" "All Chows" 2 [NO_HONORS];
    64 TILE_HOG "四归一" "Tile Hog" 2 [];
    65 DOUBLE_PUNG "双同刻" "Double Pung" 2 [];
    66 TWO_CONCEALED_PUNGS "双暗刻" "Two Concealed Pungs" 2 [];
    67 CONCEALED_KONG "暗杠" "Concealed Kong" 2 [];
    68 ALL_SIMPLES "断幺" "All Simples" 2 [NO_HONORS];
    69 PURE_DOUBLE_CHOW "一般高" "Pure Double Chow" 1 [];
    70 MIXED_DOUBLE_CHOW "喜相逢" "Mixed Double Chow" 1 [];
    71 SHORT_STRAIGHT "连六" "Short Straight" 1 [];
    72 TWO_TERMINAL_CHOWS "老少副" "Two Terminal Chows" 1 [];
    73 PUNG_OF_TERMINALS_OR_HONORS "幺九刻" "Pung of Terminals or Honors" 1 [];
    74 MELDED_KONG "明杠" "Melded Kong" 1 [];
    75 ONE_VOIDED_SUIT "缺一门" "One Voided Suit" 1 [];
    76 NO_HONORS "无字" "No Honors" 1 [];
    77 EDGE_WAIT "独听・边张" "Edge Wait" 1 [];
    78 CLOSED_WAIT "独听・嵌张" "Closed Wait" 1 [];
    79 SINGLE_WAIT "独听・单钓" "Single Wait" 1 [];
    80 SELF_DRAWN "自摸" "Self-Drawn" 1 [];
    81 FLOWER_TILES "花牌" "Flower Tiles" 1 [];
    82 CONCEALED_KONG_AND_MELDED_KONG "明暗杠" "Concealed Kong and Melded Kong" 5 [CONCEALED_KONG, MELDED_KONG];
    83 DECLARED_READY "听牌" "Declared Ready" 1 [];
}

/// Points per fan id (0 for the unused id 0), for fast totals.
pub const POINTS: [u8; N_FANS] = {
    let mut p = [0u8; N_FANS];
    let mut i = 0;
    while i < N_FANS {
        p[i] = CATALOG[i].points;
        i += 1;
    }
    p
};

/// For each fan id, the bit set of the fans it excludes (bit i = fan id i).
pub const EXCLUDE_MASKS: [u128; N_FANS] = {
    let mut m = [0u128; N_FANS];
    let mut i = 0;
    while i < N_FANS {
        let ex = CATALOG[i].excludes;
        let mut j = 0;
        while j < ex.len() {
            m[i] |= 1u128 << ex[j];
            j += 1;
        }
        i += 1;
    }
    m
};

impl Fan {
    /// The catalog row.
    #[inline]
    pub fn info(self) -> &'static FanInfo {
        &CATALOG[(self.0 as usize) % N_FANS]
    }
    /// The id (MCR number; 82 明暗杠, 83 听牌).
    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }
    /// English name (PyMahjongGB's).
    pub fn name_en(self) -> &'static str {
        self.info().name_en
    }
    /// Chinese name (PyMahjongGB's).
    pub fn name_zh(self) -> &'static str {
        self.info().name_zh
    }
    /// Points for one occurrence.
    pub fn points(self) -> u32 {
        self.info().points as u32
    }
    /// Every fan of the catalog, in id order.
    pub fn all() -> impl Iterator<Item = Fan> {
        (1..N_FANS as u8).map(Fan)
    }
    /// Looks a fan up by its English or Chinese name, or by the MCR spellings
    /// 全双, 边张, 坎张/嵌张, 单钓将 (case-insensitive for English).
    pub fn by_name(name: &str) -> Option<Fan> {
        let alias = match name {
            "全双" => "全双刻",
            "边张" => "独听・边张",
            "坎张" | "嵌张" => "独听・嵌张",
            "单钓将" | "单钓" => "独听・单钓",
            other => other,
        };
        Fan::all().find(|f| f.name_zh() == alias || f.name_en().eq_ignore_ascii_case(alias))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_is_complete() {
        for (i, row) in CATALOG.iter().enumerate().skip(1) {
            assert_eq!(row.id as usize, i);
            assert!(
                !row.name_en.is_empty() && !row.name_zh.is_empty() && row.points > 0,
                "row {i}"
            );
            assert!(!row.excludes.contains(&row.id));
        }
        let pts: u32 = (1..=80).map(|i| CATALOG[i].points as u32).sum();
        // 7*88 + 6*64 + 2*48 + 3*32 + 9*24 + 6*16 + 5*12 + 9*8 + 7*6 + 4*4 + 10*2 + 12*1
        assert_eq!(
            pts,
            616 + 384 + 96 + 96 + 216 + 96 + 60 + 72 + 42 + 16 + 20 + 12
        );
        assert_eq!(Fan::by_name("坎张"), Some(CLOSED_WAIT));
        assert_eq!(Fan::by_name("all pungs"), Some(ALL_PUNGS));
        assert_eq!(Fan::by_name("nope"), None);
    }
}
