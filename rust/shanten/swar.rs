//! Byte-parallel arithmetic in a `u64` ("SIMD within a register"): eight small counts or
//! table values handled by one word operation, portable to every target.

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
}
