//! Byte-parallel arithmetic in a `u64` ("SIMD within a register"): eight small counts or
//! table values handled by one word operation, portable to every target.

use crate::tile::Counts;

/// Counts `c[at..at + 8]` as the bytes of a word (byte `i` holds `c[at + i]`).
#[inline(always)]
pub fn word(c: &Counts, at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&c[at..at + 8]);
    u64::from_le_bytes(b)
}

/// All 34 counts as five words: kinds 0-7, 8-15, 16-23 and 24-31, then kinds 32 and 33
/// in the two low bytes of the fifth (its other bytes zero).
#[inline(always)]
pub fn words(c: &Counts) -> [u64; 5] {
    [
        word(c, 0),
        word(c, 8),
        word(c, 16),
        word(c, 24),
        u64::from(c[32]) | u64::from(c[33]) << 8,
    ]
}

/// Bit `i` set when byte `i` of `x` is zero (an exact test, no false positives).
#[inline(always)]
pub fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // A byte's high bit ends up clear exactly when the byte is non-zero: its low seven
    // bits plus 0x7F reach the high bit unless they are all zero, and its own high bit is
    // or-ed in; no carry crosses a byte because each sum stays below 0x100.
    let nonzero = ((x & LOW7) + LOW7) | x;
    gather_high_bits(!nonzero & !LOW7)
}

/// Packs the high bit of each byte of `x` (all other bits clear) into bits 0-7.
#[inline(always)]
pub fn gather_high_bits(x: u64) -> u64 {
    // Byte `i`'s flag, moved to bit 8i, lands at bit 56 + i of the product; the partial
    // products occupy distinct bits, so nothing carries into the top byte.
    ((x >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The base-5 codes of the two four-byte halves of `x` (byte `i` of a half weighted
/// `5^i`): the lower half's code in bits 0-31, the upper half's in bits 32-63. Exact for
/// bytes up to 4 (each code at most 624); larger bytes give some other value.
#[inline(always)]
pub fn base5_quads(x: u64) -> u64 {
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    const LOW16: u64 = 0x0000_FFFF_0000_FFFF;
    let pairs = (x & EVEN) + ((x >> 8) & EVEN) * 5;
    (pairs & LOW16) + ((pairs >> 16) & LOW16) * 25
}

/// The sum of the bytes of `x`, when it is below 256.
#[inline(always)]
pub fn byte_sum(x: u64) -> u64 {
    x.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// True when some byte of `x` is above 4.
#[inline(always)]
pub fn any_byte_above_4(x: u64) -> bool {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // A byte's low seven bits plus 0x7B reach its high bit exactly when they are at least
    // 5, without carrying out of the byte; a byte whose own high bit is set is above 4 too.
    (((x & LOW7) + 0x7B7B_7B7B_7B7B_7B7B) | x) & !LOW7 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_bytes_matches_a_byte_loop() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mix in zero bytes and bytes with the high bit set.
            let v = x & (x >> 3 | 0x8080_8080_0000_8080) & 0xFF00_FF80_00FF_FF01;
            let want = (0..8).fold(0u64, |m, i| m | u64::from((v >> (8 * i)) & 0xFF == 0) << i);
            assert_eq!(zero_bytes(v), want, "{v:#018x}");
        }
        assert_eq!(zero_bytes(0), 0xFF);
        assert_eq!(zero_bytes(u64::MAX), 0);
        assert_eq!(zero_bytes(0x0080_0001_0000_7F00), 0b1010_1101);
    }

    #[test]
    fn bytes_above_4() {
        for b in 0..=255u64 {
            for at in 0..8 {
                let x = 0x0403_0201_0004_0302u64 & !(0xFF << (8 * at)) | b << (8 * at);
                assert_eq!(any_byte_above_4(x), b > 4, "{x:#x}");
            }
        }
    }

    #[test]
    fn base5_codes_and_byte_sums() {
        for code in 0..625u64 * 625 {
            let digits: Vec<u64> = (0..8).map(|i| code / 5u64.pow(i) % 5).collect();
            let x = digits
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &d)| w | d << (8 * i));
            let low: u64 = (0..4).map(|i| digits[i] * 5u64.pow(i as u32)).sum();
            let high: u64 = (4..8).map(|i| digits[i] * 5u64.pow(i as u32 - 4)).sum();
            assert_eq!(base5_quads(x), low | high << 32);
            assert_eq!(byte_sum(x), digits.iter().sum::<u64>());
        }
    }
}
