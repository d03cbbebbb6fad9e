//! Huainan rules: the 宝 wild tiles, their forms and scoring.

crate::option_group! {
    /// Huainan options (decisions D-n of huainan.md).
    pub struct HuainanOptions {}
}
