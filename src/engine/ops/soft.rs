//! Addition and multiplication of binary16, x87 80-bit extended and binary128 values in
//! software, correctly rounded to nearest-even as the hardware (or gcc's `__float128`) does:
//! Rust has no such types. Sums are exact in a `u128` but for a sticky bit; products of up to
//! 113-bit significands are formed in 256 bits.

/// A binary floating-point format.
#[derive(Clone, Copy)]
pub(super) struct Format {
    /// Significand bits, the integer bit included.
    precision: u32,
    /// Exponent bits.
    exponent_bits: u32,
    /// Whether the integer bit is stored (x87) or implied (IEEE interchange formats).
    explicit: bool,
}

/// x87 extended: 64-bit significand with its integer bit, 15-bit exponent.
pub(super) const X87: Format = Format {
    precision: 64,
    exponent_bits: 15,
    explicit: true,
};

/// IEEE binary128.
pub(super) const QUAD: Format = Format {
    precision: 113,
    exponent_bits: 15,
    explicit: false,
};

/// IEEE binary16.
pub(super) const HALF: Format = Format {
    precision: 11,
    exponent_bits: 5,
    explicit: false,
};

enum Value {
    Nan(u128),
    Infinite(bool),
    /// `(-1)^sign * significand * 2^exponent`.
    Finite {
        sign: bool,
        significand: u128,
        exponent: i32,
    },
}

impl Format {
    fn fraction_bits(self) -> u32 {
        if self.explicit {
            self.precision
        } else {
            self.precision - 1
        }
    }

    fn bias(self) -> i32 {
        (1 << (self.exponent_bits - 1)) - 1
    }

    fn max_field(self) -> u128 {
        (1 << self.exponent_bits) - 1
    }

    fn sign_shift(self) -> u32 {
        self.exponent_bits + self.fraction_bits()
    }

    /// The bit that makes a NaN quiet: the fraction's top bit (below x87's integer bit).
    fn quiet_bit(self) -> u128 {
        1 << (self.precision - 2)
    }

    fn unpack(self, bits: u128) -> Value {
        let fraction = bits & ((1 << self.fraction_bits()) - 1);
        let field = (bits >> self.fraction_bits()) & self.max_field();
        let sign = (bits >> self.sign_shift()) & 1 == 1;
        let below_integer_bit = fraction & ((1 << (self.precision - 1)) - 1);
        if field == self.max_field() {
            return if below_integer_bit == 0 {
                Value::Infinite(sign)
            } else {
                Value::Nan(bits)
            };
        }
        let low = 1 - self.bias() - (self.precision as i32 - 1);
        let (significand, exponent) = match (field, self.explicit) {
            (0, _) => (fraction, low),
            (_, true) => (fraction, low + field as i32 - 1),
            (_, false) => (
                fraction | (1 << (self.precision - 1)),
                low + field as i32 - 1,
            ),
        };
        Value::Finite {
            sign,
            significand,
            exponent,
        }
    }

    fn infinity(self, sign: bool) -> u128 {
        let integer = if self.explicit {
            1 << (self.precision - 1)
        } else {
            0
        };
        ((sign as u128) << self.sign_shift()) | (self.max_field() << self.fraction_bits()) | integer
    }

    /// The NaN an invalid operation makes (x86's "indefinite": negative, quiet).
    fn default_nan(self) -> u128 {
        self.infinity(true) | self.quiet_bit()
    }

    fn zero(self, sign: bool) -> u128 {
        (sign as u128) << self.sign_shift()
    }

    /// A NaN operand's result: the NaN made quiet (of two, the larger significand, as x87).
    fn nan(self, a: u128, b: Option<u128>) -> u128 {
        let mask = (1 << self.fraction_bits()) - 1;
        let pick = match b {
            Some(b) if b & mask > a & mask => b,
            _ => a,
        };
        pick | self.quiet_bit()
    }

    /// `(-1)^sign * significand * 2^exponent`, rounded to nearest-even.
    fn round(self, sign: bool, significand: u128, exponent: i32) -> u128 {
        if significand == 0 {
            return self.zero(sign);
        }
        let p = self.precision as i32;
        let length = 128 - significand.leading_zeros() as i32;
        let mut shift = length - p;
        let mut field = exponent + shift + (p - 1) + self.bias();
        if field < 1 {
            // Below the normal range: a subnormal, with fewer significant bits.
            shift += 1 - field;
            field = 0;
        }
        let mut kept = if shift <= 0 {
            significand << (-shift) as u32
        } else if shift > length {
            // Less than half the smallest subnormal.
            0
        } else {
            let shift = shift as u32;
            let (kept, dropped) = if shift >= 128 {
                (0, significand)
            } else {
                (significand >> shift, significand & ((1 << shift) - 1))
            };
            let half = 1u128 << (shift - 1);
            if dropped > half || (dropped == half && kept & 1 == 1) {
                kept + 1
            } else {
                kept
            }
        };
        if kept >> self.precision != 0 {
            kept >>= 1;
            field += 1;
        }
        if field == 0 && kept >> (self.precision - 1) != 0 {
            // A subnormal rounded up to the smallest normal.
            field = 1;
        }
        if field as u128 >= self.max_field() {
            return self.infinity(sign);
        }
        let fraction = if self.explicit {
            kept
        } else {
            kept & ((1 << (self.precision - 1)) - 1)
        };
        ((sign as u128) << self.sign_shift()) | ((field as u128) << self.fraction_bits()) | fraction
    }

    /// `a + b`.
    pub(super) fn add(self, a: u128, b: u128) -> u128 {
        match (self.unpack(a), self.unpack(b)) {
            (Value::Nan(x), Value::Nan(y)) => self.nan(x, Some(y)),
            (Value::Nan(x), _) | (_, Value::Nan(x)) => self.nan(x, None),
            (Value::Infinite(s), Value::Infinite(t)) if s != t => self.default_nan(),
            (Value::Infinite(s), _) | (_, Value::Infinite(s)) => self.infinity(s),
            (
                Value::Finite {
                    sign: sa,
                    significand: ma,
                    exponent: ea,
                },
                Value::Finite {
                    sign: sb,
                    significand: mb,
                    exponent: eb,
                },
            ) => {
                if ma == 0 && mb == 0 {
                    return self.zero(sa && sb);
                }
                // Both on a common exponent with 126 - precision spare low bits below the
                // larger one; what the smaller loses is jammed into its lowest bit, far below
                // where the result rounds.
                let top = ea.max(eb);
                let spare = 126 - self.precision as i32;
                let align = |m: u128, e: i32| -> u128 {
                    let left = spare - (top - e);
                    if left >= 0 {
                        m << left as u32
                    } else if -left >= 128 {
                        (m != 0) as u128
                    } else {
                        let right = (-left) as u32;
                        (m >> right) | ((m & ((1 << right) - 1) != 0) as u128)
                    }
                };
                let (x, y) = (align(ma, ea), align(mb, eb));
                let exponent = top - spare;
                if sa == sb {
                    self.round(sa, x + y, exponent)
                } else if x >= y {
                    // An exact zero difference is +0 when rounding to nearest.
                    self.round(sa && x != y, x - y, exponent)
                } else {
                    self.round(sb, y - x, exponent)
                }
            }
        }
    }

    /// `a * b`.
    pub(super) fn mul(self, a: u128, b: u128) -> u128 {
        let sign_of = |bits: u128| (bits >> self.sign_shift()) & 1 == 1;
        let sign = sign_of(a) != sign_of(b);
        match (self.unpack(a), self.unpack(b)) {
            (Value::Nan(x), Value::Nan(y)) => self.nan(x, Some(y)),
            (Value::Nan(x), _) | (_, Value::Nan(x)) => self.nan(x, None),
            (Value::Infinite(_), Value::Finite { significand: 0, .. })
            | (Value::Finite { significand: 0, .. }, Value::Infinite(_)) => self.default_nan(),
            (Value::Infinite(_), _) | (_, Value::Infinite(_)) => self.infinity(sign),
            (
                Value::Finite {
                    significand: ma,
                    exponent: ea,
                    ..
                },
                Value::Finite {
                    significand: mb,
                    exponent: eb,
                    ..
                },
            ) => {
                let (high, low) = wide_mul(ma, mb);
                if high == 0 {
                    return self.round(sign, low, ea + eb);
                }
                // Down to 126 bits, the dropped ones jammed into the lowest: rounding to
                // at most 113 bits then sees them as a sticky bit.
                let shift = 128 + (128 - high.leading_zeros()) - 126;
                let kept = (high << (128 - shift)) | (low >> shift);
                let sticky = low & ((1 << shift) - 1) != 0;
                self.round(sign, kept | sticky as u128, ea + eb + shift as i32)
            }
        }
    }

    /// `-a`.
    pub(super) fn negate(self, a: u128) -> u128 {
        a ^ (1 << self.sign_shift())
    }
}

/// The 256-bit product of two 128-bit numbers, as (high, low) halves.
fn wide_mul(a: u128, b: u128) -> (u128, u128) {
    let split = |x: u128| (x >> 64, x & u64::MAX as u128);
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    let (hh, hl, lh, ll) = (ah * bh, ah * bl, al * bh, al * bl);
    // The middle terms, each below 2^128, and their carries into the high half.
    let (middle, carry) = hl.overflowing_add(lh);
    let (low, carry_low) = ll.overflowing_add(middle << 64);
    let high = hh + (middle >> 64) + ((carry as u128) << 64) + carry_low as u128;
    (high, low)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x87(hex: &str) -> u128 {
        let mut bytes = [0u8; 16];
        for (i, byte) in bytes.iter_mut().take(10).enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
        }
        u128::from_le_bytes(bytes)
    }

    /// (a, b, a + b, a * b) as x86-64 long doubles (10 bytes, little-endian), computed by gcc
    /// on x86-64 with the x87 unit: normal, subnormal, near-overflow and near-underflow
    /// values, short significands (exact results and ties), and cancellations.
    const LONG_DOUBLE: &[(&str, &str, &str, &str)] = &[
        (
            "0000defb750969f9f7bf",
            "b28716271309ddf1d8bf",
            "261298df770969f9f7bf",
            "ee392c976c3aa3ebd13f",
        ),
        (
            "8e3f23c4ae207be7fe7f",
            "8e3f23c4ae207be7feff",
            "00000000000000000000",
            "0000000000000080ffff",
        ),
        (
            "0000b3a81374e88b12c0",
            "da75bdfafcde1ebefcff",
            "da75bdfafcde1ebefcff",
            "0000000000000080ff7f",
        ),
        (
            "4c7100a37166879722c0",
            "4c7100a37166879722c0",
            "4c7100a37166879723c0",
            "ea604686ee0462b34540",
        ),
        (
            "d29a4b71a374d8f60cc0",
            "0000b7269e4a10f618c0",
            "ba14ee7025b81ff618c0",
            "2b8db9698fb543ed2640",
        ),
        (
            "000044f2f79a12ece8bf",
            "000044f2f79a12ece83f",
            "00000000000000000000",
            "2fb15a4f134fb2d9d2bf",
        ),
        (
            "01ce938c8204fde10540",
            "6bba0d5de24195e71fc0",
            "c899ccdda94195e71fc0",
            "e85a7d7e7e116fcc26c0",
        ),
        (
            "30a21af42909bfbef93f",
            "9d8c27e418a9b396f4bf",
            "cb65f92ce16b09baf93f",
            "8ae7a44ce19993e0eebf",
        ),
        (
            "1846797723480ebd1840",
            "00008ea5cab16eb31040",
            "18d41e42d5b6c1bd1840",
            "21a62f53e0bb82842a40",
        ),
        (
            "ca8b39e48e8035971040",
            "ca8b39e48e80359710c0",
            "00000000000000000000",
            "6f2deb19ae51a0b221c0",
        ),
        (
            "000065c89325c9fffc3f",
            "1789244d20b51fac2540",
            "aa6da44d20b51fac2540",
            "f450535594d3faab2340",
        ),
        (
            "63babad169a6a6000000",
            "63babad169a6a6000000",
            "c67475a3d34c4d010000",
            "00000000000000000000",
        ),
        (
            "f05670d8a9d7d79320c0",
            "a8bf7a0271f265e40d40",
            "a136221a1dbbd79320c0",
            "8ec559a83e1ce7832fc0",
        ),
        (
            "e8acd56769986ccafcff",
            "e7acd56769986ccafc7f",
            "0000000000000080bdff",
            "0000000000000080ffff",
        ),
        (
            "601dd99d029261bd0100",
            "48ebc1fe060000000000",
            "a8089b9c099261bd0100",
            "00000000000000000000",
        ),
        (
            "93e080d0583352b10180",
            "9ef3f4a99c30c6e3feff",
            "9ef3f4a99c30c6e3feff",
            "046b0465c72ac59d0140",
        ),
        (
            "9a81b9b67cc2e096fd7f",
            "c3809777d1aa42810300",
            "9a81b9b67cc2e096fd7f",
            "51e8b7623f195d980140",
        ),
        (
            "3b0aff52498af59e2140",
            "3b0aff52498af59e21c0",
            "00000000000000000000",
            "8c9efdfa680468c543c0",
        ),
        (
            "751461e752f5f49e1240",
            "f8d74d629b9da98eda3f",
            "041561e752f5f49e1240",
            "732ac24b4d632ab1ed3f",
        ),
        (
            "70ddb3726e6868bb0100",
            "70ddb3726e6868bb0100",
            "70ddb3726e6868bb0200",
            "00000000000000000000",
        ),
        (
            "aba682aebc19dac3fb3f",
            "78000000000000000080",
            "aba682aebc19dac3fb3f",
            "0b000000000000000080",
        ),
        (
            "457d8cf2793ba6f00d40",
            "437d8cf2793ba6f00dc0",
            "0000000000000080cf3f",
            "f668bfd6751b38e21cc0",
        ),
        (
            "5bc6ba0565f15a8914c0",
            "1f280dee054e8785fbbf",
            "52c961c9a7f15a8914c0",
            "aa519a5877b0498f1040",
        ),
        (
            "bb4c040a827382be0280",
            "9580f81a280a27d8f4bf",
            "9580f81a280a27d8f4bf",
            "3b1d21728f6d50000000",
        ),
        (
            "a3c31e3770de15000000",
            "790076f21ec5a980fe7f",
            "790076f21ec5a980fe7f",
            "efc6704ea78cdbaff53f",
        ),
        (
            "e1973d00000000000000",
            "e1973d00000000000080",
            "00000000000000000000",
            "00000000000000000080",
        ),
        (
            "cda54a2524f5c8a9f83f",
            "dedd36462f5a61dc11c0",
            "cb4bbc61da5961dc11c0",
            "155563f39f4329920bc0",
        ),
        (
            "000068c1f6626394e9bf",
            "000068c1f6626394e9bf",
            "000068c1f6626394eabf",
            "b8607701062206acd33f",
        ),
        (
            "a9925e673ad6bdb51e40",
            "36ae748f25ee29d10380",
            "a9925e673ad6bdb51e40",
            "c9e630255ec07d942380",
        ),
        (
            "8121acf0a44422e70380",
            "8121acf0a44422e70300",
            "00000000000000000000",
            "00000000000000000080",
        ),
        (
            "ae88be4a000000000000",
            "3b1af27efee570aef53f",
            "3b1af27efee570aef53f",
            "3c771900000000000000",
        ),
        (
            "01000000000000000080",
            "f8e0a21636b552fcfdff",
            "f8e0a21636b552fcfdff",
            "f8e0a21636b552fcc03f",
        ),
        (
            "0000d222820f55bf0fc0",
            "0000dec17bc860a7f5bf",
            "f01e04fbab0f55bf0fc0",
            "df6fca50b5a531fa0540",
        ),
        (
            "000095e4db0ea8addebf",
            "ffff94e4db0ea8adde3f",
            "00000000000000809fbf",
            "e15ed468d12499ebbdbf",
        ),
        (
            "5b3a042f8440dd8bfdbf",
            "5b773c62513400000000",
            "5b3a042f8440dd8bfdbf",
            "92ffe3b34a0e00000080",
        ),
        (
            "10c5656d95645bae0300",
            "10c5656d95645bae0300",
            "10c5656d95645bae0400",
            "00000000000000000000",
        ),
        (
            "27f1caba756efcf41640",
            "0930320931306bf1fc7f",
            "0930320931306bf1fc7f",
            "0000000000000080ff7f",
        ),
        (
            "1f68b02fcef317fcd8bf",
            "1d68b02fcef317fcd83f",
            "00000000000000809abf",
            "47f320a53b2a3ff8b2bf",
        ),
        (
            "f6b907464bb461b11ac0",
            "6d9228bc32a086d7fd7f",
            "6d9228bc32a086d7fd7f",
            "0000000000000080ffff",
        ),
        (
            "f7bc03b0a9424c950940",
            "2ffc7e0e0e3ad3bd0ac0",
            "673bfa6c72315ae609c0",
            "004e1265dbf968dd14c0",
        ),
        (
            "d378c0c68df63b960180",
            "09f880839b260a93fd7f",
            "09f880839b260a93fd7f",
            "e6f57b6926c794acffbf",
        ),
        (
            "53a2205bf25190e11f40",
            "53a2205bf25190e11fc0",
            "00000000000000000000",
            "2825114f6801bfc640c0",
        ),
        (
            "0000475bc7cd98b3f03f",
            "c6e8f906825edff619c0",
            "5f1ca006825edff619c0",
            "5a576b26268a31ad0bc0",
        ),
        (
            "0000784f6a1206b32540",
            "0000784f6a1206b32540",
            "0000784f6a1206b32640",
            "e651e112cbfb62fa4b40",
        ),
        (
            "04450000000000000000",
            "1855598f349b00000080",
            "1410598f349b00000080",
            "00000000000000000080",
        ),
        (
            "453e4d8974e244a9fdff",
            "453e4d8974e244a9fd7f",
            "00000000000000000000",
            "0000000000000080ffff",
        ),
        (
            "f4115667aeebd7d00dc0",
            "dbdf4faaa5ac43b220c0",
            "c6acc5a7c0c643b220c0",
            "9b84f32a3a576d912f40",
        ),
        (
            "dc527380f8b630cefdff",
            "1539996ae085699612c0",
            "dc527380f8b630cefdff",
            "0000000000000080ff7f",
        ),
        (
            "c3d2b11892b26cf2ec3f",
            "c35e8cee75a3fd96eabf",
            "12bb0e9db449adccec3f",
            "ec3621f8d8e0fb8ed8bf",
        ),
        (
            "06ce0320516daad80280",
            "06ce0320516daad80200",
            "00000000000000000000",
            "00000000000000000080",
        ),
        (
            "b02cdf4858bc37dafcff",
            "2c93a28e8269ab940380",
            "b02cdf4858bc37dafcff",
            "a6197afe1bac74fd0040",
        ),
        (
            "08000000000000000080",
            "08000000000000000080",
            "10000000000000000080",
            "00000000000000000000",
        ),
        (
            "d1639c03a51025881fc0",
            "3cc3bd923aca46ab0200",
            "d1639c03a51025881fc0",
            "b7f834589acf2cb62280",
        ),
        (
            "2dd2c59140ca7da5fe7f",
            "2dd2c59140ca7da5feff",
            "00000000000000000000",
            "0000000000000080ffff",
        ),
        (
            "d75ca09b45c9bded2440",
            "0ce5ba2ba90a62ad1840",
            "85183346669fc8ed2440",
            "92fa939b914d04a13e40",
        ),
        (
            "af25634438d4f3dddbbf",
            "afc5fce474a875d01240",
            "f3c3fce474a875d01240",
            "ba369111eb1ebcb4efbf",
        ),
        (
            "0000fc71372343b6e83f",
            "b3dcca2a4a4ddaa30380",
            "0000fc71372343b6e83f",
            "a4f4b9824a0700000080",
        ),
        (
            "80c7f10f2fd88ff7debf",
            "7ec7f10f2fd88ff7de3f",
            "0000000000000080a0bf",
            "a3d2e70bfee366efbebf",
        ),
        (
            "9c5a098d7e5756a6fe7f",
            "043581f4e6eb5d860940",
            "9c5a098d7e5756a6fe7f",
            "0000000000000080ff7f",
        ),
        (
            "46060000000000000000",
            "46060000000000000000",
            "8c0c0000000000000000",
            "00000000000000000000",
        ),
        (
            "75f894deae78cbf8f33f",
            "fda8e293ec6500000080",
            "75f894deae78cbf8f33f",
            "2c3dc6610c0000000080",
        ),
        (
            "351586141fc8bdad1ec0",
            "351586141fc8bdad1e40",
            "00000000000000000000",
            "f9342438561ad4eb3dc0",
        ),
        (
            "b2019726629ef4d4feff",
            "0e000000000000000000",
            "b2019726629ef4d4feff",
            "7c21c4e1950a56bac5bf",
        ),
        (
            "27a38d9e0c296a93fcff",
            "0000e4954e82cffb26c0",
            "27a38d9e0c296a93fcff",
            "0000000000000080ff7f",
        ),
    ];

    #[test]
    fn x87_matches_the_hardware() {
        assert!(LONG_DOUBLE.len() >= 60);
        for (a, b, sum, product) in LONG_DOUBLE {
            let (a, b) = (x87(a), x87(b));
            assert_eq!(X87.add(a, b), x87(sum), "{a:x} + {b:x}");
            assert_eq!(X87.add(b, a), x87(sum), "{b:x} + {a:x}");
            assert_eq!(X87.mul(a, b), x87(product), "{a:x} * {b:x}");
        }
    }

    fn quad(hex: &str) -> u128 {
        u128::from_str_radix(
            &(0..16)
                .rev()
                .map(|i| &hex[2 * i..2 * i + 2])
                .collect::<String>(),
            16,
        )
        .unwrap()
    }

    /// (a, b, a + b, a * b) as binary128 (16 bytes, little-endian), computed by gcc's
    /// `__float128` on x86-64, with values of the same sorts as the long doubles.
    const QUADS: &[(&str, &str, &str, &str)] = &[
        (
            "b015defb7509697971bd9a0300000000",
            "3d06751834bb0af771c3214bcd7bc9bf",
            "3d06751834bb0af771c3214bcd7bc9bf",
            "07bee963150000000000000000000080",
        ),
        (
            "0000000000000000000000f899490e40",
            "0000000000000000000000f899490ec0",
            "00000000000000000000000000000000",
            "000000000000000040600a1c5da81dc0",
        ),
        (
            "da75bdfafcde1ebeb139cc7174c60300",
            "aea22fcb52dcd4fa6b96d27d349a0fc0",
            "aea22fcb52dcd4fa6b96d27d349a0fc0",
            "81c98e3cf1fe752f0072a2d6196c1480",
        ),
        (
            "69cff38053f4225bb7d282c79c100180",
            "69cff38053f4225bb7d282c79c100180",
            "69cff38053f4225bb7d282c79c100280",
            "00000000000000000000000000000000",
        ),
        (
            "fe0e44f2f79a126c63f9baff8fe6fcff",
            "4c619734de2f7dd28e9c1378816612c0",
            "fe0e44f2f79a126c63f9baff8fe6fcff",
            "0000000000000000000000000000ff7f",
        ),
        (
            "dd490347c8269adf0e98784ebd54e6bf",
            "de2e0347c8269adf0e98784ebd54e63f",
            "000000000000000000000000f0af82bf",
            "6020e47a26995fbd054a6d6487c5cdbf",
        ),
        (
            "9d8c27e418a9b316c44417a4c9cf2e40",
            "94322da28bbce190f14d9503b1190280",
            "9d8c27e418a9b316c44417a4c9cf2e40",
            "02b08da1eb1481d90fd9050655fe3180",
        ),
        (
            "c9ead964937634125ccb8bdf5b440180",
            "72e0600f87a0d3df1fcb4f5e13000000",
            "570a79550cd660323c003c8148440180",
            "00000000000000000000000000000080",
        ),
        (
            "0000000000000000000000c893251040",
            "1789244d20b51f2cc565341e81602140",
            "1789244d20b51f2cc549feb081602140",
            "275958bffbaa3a0b2a301b453f943240",
        ),
        (
            "7818c0cb5b903ca74886ce834c98d93f",
            "7818c0cb5b903ca74886ce834c98d9bf",
            "00000000000000000000000000000000",
            "60ba6eca4f8b1f2a426980fd9945b4bf",
        ),
        (
            "a8bf7a0271f26564d7a08a68d3d70940",
            "b13d8e8e229c26378a6dbe743cd7fcff",
            "b13d8e8e229c26378a6dbe743cd7fcff",
            "0000000000000000000000000000ffff",
        ),
        (
            "148ac9d84d4140b0001c587810a90000",
            "148ac9d84d4140b0001c587810a90000",
            "281493b19b8280600138b0f020520100",
            "00000000000000000000000000000000",
        ),
        (
            "bed62c34dae3212d93e080d058330180",
            "9ef3f4a99c30c663f93d1a0839e90300",
            "eebde91ca6b77d98d405fad3629c0300",
            "00000000000000000000000000000080",
        ),
        (
            "19d4b5790da9b71af199528756430200",
            "7bbab5790da9b71af199528756430280",
            "3c330000000000000000000000000000",
            "00000000000000000000000000000080",
        ),
        (
            "76e88580c5636089263ebceb92cd0180",
            "00000000000000000000006e25643540",
            "00000000000000000000006e25643540",
            "ec53923e5a3aa8baf67c31e611413880",
        ),
        (
            "57b2ad19363e0234f39c5e9188250200",
            "8723dc7e8f83e43e009a59673fe0d13f",
            "8723dc7e8f83e43e009a59673fe0d13f",
            "c35fe5e06e1d46351100000000000000",
        ),
        (
            "c6f690d0845b7f94aba682aebc19e73f",
            "26bb20700ed94f3cd0f32a94312c16c0",
            "2792c922097cd608cef32a94312c16c0",
            "baa607bdfd1cfb677edcaeac5f4afebf",
        ),
        (
            "ff9420049fcce219160abe34678f0280",
            "ff9420049fcce219160abe34678f0200",
            "00000000000000000000000000000000",
            "00000000000000000000000000000080",
        ),
        (
            "498b28a806e521dc1f280dee054e37c0",
            "bb4c040a827382bee20a50138fdbf6bf",
            "ba90d031ced222dc1f280dee054e37c0",
            "a545439fe18438fdc2a19ad73f362f40",
        ),
        (
            "d4f4570d9a04dba33dee504eeff1fc7f",
            "d4f4570d9a04dba33dee504eeff1fc7f",
            "d4f4570d9a04dba33dee504eeff1fd7f",
            "0000000000000000000000000000ff7f",
        ),
        (
            "dae1396ac58a61853720e10100000000",
            "20c37de2f7ef5e7ca6f0e1cbc4062dc0",
            "20c37de2f7ef5e7ca6f0e1cbc4062dc0",
            "5065287fbbb58c5d9131aad4d8ed1780",
        ),
        (
            "cda54a2524f5c829c6e39cac4f7ffd7f",
            "6f874a2524f5c829c6e39cac4f7ffdff",
            "000000000000000000000000e0e5997f",
            "0000000000000000000000000000ffff",
        ),
        (
            "4b1b3c62b3698ebabdd1edabd064c73f",
            "a9925e673ad6bdb5cca5f95d2743e73f",
            "5cfcec21f8a7ab619d0afb5d2743e73f",
            "c5c091f7477535c86105b3276ac2af3f",
        ),
        (
            "0000000000000000000000f532d91440",
            "71fb273465eaa62dc7485199c6891cc0",
            "71fb273465eaa62dc7485c66ed871cc0",
            "2775bac12f78738209197629ef6b32c0",
        ),
        (
            "0d23e9f791681c390b92392e9f5e1b40",
            "ac4b1ddffdcffdf63b1af27efee50940",
            "d49ae86b5166abbfc731b9a79f5e1b40",
            "e5445c3edc93263ffb6e3011d04c2640",
        ),
        (
            "1c5a9b0e09de81f8a86b430603dcd43f",
            "65349b0e09de81f8a86b430603dcd4bf",
            "000000000000000000000000b82d713f",
            "aa0c17de0d1c730e0cefa99f8dbaaabf",
        ),
        (
            "0000000000000000000000c17bc809c0",
            "feb295e4db0ea82d1be6590c7214dc3f",
            "c09226cf309d6f5cf7ffffc07bc809c0",
            "16420586a2c7dcbe610c36c9f0ece6bf",
        ),
        (
            "29568780f9c4802ad1d5a20b00000080",
            "29568780f9c4802ad1d5a20b00000080",
            "52ac0e01f3890155a2ab451700000080",
            "00000000000000000000000000000000",
        ),
        (
            "d1746ad5d0e6a0eced0d820232000080",
            "761d3dfed8194818ccfab0964226feff",
            "761d3dfed8194818ccfab0964226feff",
            "02c1d3f58fbd32e4078e8c1bdfcbf53f",
        ),
        (
            "27f1caba756efcf405cd2d27d1c613c0",
            "27f1caba756efcf405cd2d27d1c61340",
            "00000000000000000000000000000000",
            "1ca4d4c17272a970fcb8eb40059428c0",
        ),
        (
            "6b6bfe886e9613777d2de2fdcfb5f63f",
            "604b15e03ccde096f6b907464bb4debf",
            "8b2e31a8d79f596f37e22dfccfb5f63f",
            "4edb6954f3c446e970560c7c1375d6bf",
        ),
        (
            "6d9228bc32a0865709f82b312b74fcff",
            "4e668e58646ea291d65ac28c01000080",
            "6d9228bc32a0865709f82b312b74fcff",
            "b3d1184c3b558cca0e336dae6620ef3f",
        ),
        (
            "000000000000000000000046795835c0",
            "65962bc86154da5a09f880839b26fd7f",
            "65962bc86154da5a09f880839b26fd7f",
            "0000000000000000000000000000ffff",
        ),
        (
            "53a2205bf2519061c5b4140800000000",
            "53a2205bf2519061c5b4140800000080",
            "00000000000000000000000000000000",
            "00000000000000000000000000000080",
        ),
        (
            "c9e75aa5774689f24680dc4018bdea3f",
            "00000000000000000000004f6a123940",
            "b981307a030000000000004f6a123940",
            "c0af44991b3f8d189d58d1ca1cdd2440",
        ),
        (
            "00000000000000000000003e5de8f33f",
            "00000000000000000000003e5de8f33f",
            "00000000000000000000003e5de8f43f",
            "0000000000000000820d2bcfd1d1e83f",
        ),
        (
            "d075efecbfc2b18a3bdf27f8ff7fc4bf",
            "afaf57535c2dd9f9300b8fdda6d51740",
            "aab057235c2dd9f9300b8fdda6d51740",
            "3d26cfed3fd60e2be93ff91e3d60ddbf",
        ),
        (
            "819a8506a8d5ee4ef4115667aeebd1bf",
            "819a8506a8d5ee4ef4115667aeebd13f",
            "00000000000000000000000000000000",
            "3533ba46940e23f7ca659a3b2bd8a4bf",
        ),
        (
            "3f60bdd689dbb5483ff5312c03e422c0",
            "4fa6038a615fbf09c3d2b11892b2d83f",
            "ca3337321ddbb5483ff5312c03e422c0",
            "9d722220fbecfe5f8a33b6ccd09afcbf",
        ),
        (
            "000000000000000000000000a463fe3f",
            "1a8844eb22bfad868a47a761e8acf5bf",
            "bc5d8a6e20a9bc3a5c2ccf8bcd62fe3f",
            "52604fefad9bc076afc32482ec29f5bf",
        ),
        (
            "00000000000000000000009a594d23c0",
            "d4a774c3ea231cf29b3b17283107cd3f",
            "603be3fbffffffffffffff99594d23c0",
            "71eb77ca2596018dbbba900fb756f1bf",
        ),
        (
            "25d2d7f91f2e09a55416e0afd7000080",
            "14d2d7f91f2e09a55416e0afd7000000",
            "11000000000000000000000000000080",
            "00000000000000000000000000000080",
        ),
        (
            "c8313473a5b6e6d1ab2bb1253c9935c0",
            "c8728909383a0a202dd2c59140cafe7f",
            "c8728909383a0a202dd2c59140cafe7f",
            "0000000000000000000000000000ffff",
        ),
        (
            "cb3606ce9659143866e80274cb8409c0",
            "cb3606ce9659143866e80274cb8409c0",
            "cb3606ce9659143866e80274cb840ac0",
            "f2a1d2fa9ddb5f87d200adac3c271440",
        ),
        (
            "c653796c6bd6ec6e0100000000000000",
            "f45fd8baf6943b644b92d2cea3dd1fc0",
            "f45fd8baf6943b644b92d2cea3dd1fc0",
            "3af631e116990514c3149aac02000080",
        ),
        (
            "0000000000000000000000713723fc3f",
            "0000000000000000000000713723fcbf",
            "00000000000000000000000000000000",
            "0000000000000000e1bfe716474bf9bf",
        ),
        (
            "000000000000000000000018dc460c40",
            "e17dc351c5af885a5aa3b782f16de4bf",
            "5077a5a55c487d0e92feff17dc460c40",
            "f7b52b24c95540a816d4502a3cd3f1bf",
        ),
        (
            "6c344d82948473da043581f4e6ebf53f",
            "af67b3659badd3c8a00a144607a6d3bf",
            "05491850ec81ee0883cb80f4e6ebf53f",
            "05c48cc64d73ce6c20ab82587695cabf",
        ),
        (
            "000000000000000000000025524a18c0",
            "5cdba98ff918fff2eadf7f1209b2f3bf",
            "c8f89757fffe9348900d0025524a18c0",
            "7885de4883d0ed88a309be7b05180d40",
        ),
        (
            "21aa8be4c6142684351586141fc8e2bf",
            "fe858be4c6142684351586141fc8e23f",
            "00000000000000000000000018217fbf",
            "6cdb2bdad51ea481d6d2715e5796c6bf",
        ),
        (
            "31034ea15de5bd907773046f026efe7f",
            "3c6141bd770dad0dfe2cb877a2a12440",
            "31034ea15de5bd907773046f026efe7f",
            "0000000000000000000000000000ff7f",
        ),
        (
            "0000000000000000000000954e82eabf",
            "0000000000000000000000954e82eabf",
            "0000000000000000000000954e82ebbf",
            "00000000000000805c91b9887823d63f",
        ),
        (
            "2bd8e40d9a5664be5b7b7a2d90ceeabf",
            "00000000000000000000002f1037e5bf",
            "2bd8e40d9a5664be5b7bf2ae48d8eabf",
            "bb14347eb7d156d3ee8d97320719d13f",
        ),
        (
            "57bd392cf16b08d2ed7b7e00a24d0100",
            "57bd392cf16b08d2ed7b7e00a24d0180",
            "00000000000000000000000000000000",
            "00000000000000000000000000000080",
        ),
        (
            "a0a3427e67194840e7ceace987d70300",
            "039d47710d98133df93210ac8d810840",
            "039d47710d98133df93210ac8d810840",
            "a9282fbe715318095ddf9a2c14630d00",
        ),
        (
            "86795bddad3b82605bb9184604000000",
            "3f17206cc167279a78b815e53c000000",
            "c5907b496fa3a9fad3712e2b41000000",
            "00000000000000000000000000000000",
        ),
        (
            "0000000000000000000000aafb35e5bf",
            "b2fad02f6f59f6bf5add880f00000080",
            "0000000000000000000000aafb35e5bf",
            "9ffd342b1d2cdeb30400000000000000",
        ),
        (
            "65bd85489878b5275f4f6970c5e0fcff",
            "65bd85489878b5275f4f6970c5e0fc7f",
            "00000000000000000000000000000000",
            "0000000000000000000000000000ffff",
        ),
        (
            "f34615ee149ab542beb03a8b543d0e40",
            "00000000000000000000009092783240",
            "a1592be40babb348d513009092783240",
            "43ce4ac466cbe741612935d9c9d24140",
        ),
        (
            "d0672e4b32a6fcb91fcfe5b63ecbfeff",
            "d0672e4b32a6fcb91fcfe5b63ecbfeff",
            "0000000000000000000000000000ffff",
            "0000000000000000000000000000ff7f",
        ),
        (
            "fcd7c1940e6dc2a8532bc4d52d7e05c0",
            "2205715d32d4ff34a8ef7e9afee63ac0",
            "68a2cb7ee042f140a8ef7e9afee63ac0",
            "e504272fd8ede277e9caf88d836b4140",
        ),
        (
            "5bf0a4531aaeb2367bcfc28ecf27d03f",
            "ebd8a4531aaeb2367bcfc28ecf27d0bf",
            "00000000000000000000000000776c3f",
            "3df110d9cb11be33d6284d03d055a1bf",
        ),
        (
            "429655f5f576126aeeedce22eaa3dd3f",
            "32ff66914ae048680300000000000000",
            "429655f5f576126aeeedce22eaa3dd3f",
            "1444b365010000000000000000000000",
        ),
        (
            "5bc657296c9a0559179f11620737fdff",
            "e4f393cd6dc4b75403ad8e563510fdff",
            "20dd75fb6cafde560d26505c9e23feff",
            "0000000000000000000000000000ff7f",
        ),
    ];

    #[test]
    fn binary128_matches_the_library() {
        assert!(QUADS.len() >= 60);
        for (a, b, sum, product) in QUADS {
            let (a, b) = (quad(a), quad(b));
            assert_eq!(QUAD.add(a, b), quad(sum), "{a:x} + {b:x}");
            assert_eq!(QUAD.mul(a, b), quad(product), "{a:x} * {b:x}");
            assert_eq!(QUAD.mul(b, a), quad(product), "{b:x} * {a:x}");
        }
    }

    #[test]
    fn wide_products() {
        assert_eq!(wide_mul(u128::MAX, u128::MAX), (u128::MAX - 1, 1));
        assert_eq!(wide_mul(1 << 127, 2), (1, 0));
        assert_eq!(wide_mul(3, 5), (0, 15));
        let x = (1u128 << 112) + 12345;
        assert_eq!(
            wide_mul(x, x),
            (1 << 96, ((2 * 12345) << 112) | (12345 * 12345))
        );
    }

    /// (a, b, a + b, a * b) as binary16, computed by gcc (`_Float16`, through double).
    const HALVES: &[(u16, u16, u16, u16)] = &[
        (0x15b0, 0xc59b, 0xc59b, 0x9ff8),
        (0x9ad0, 0x1ad0, 0x0000, 0x80ba),
        (0x87b2, 0x063d, 0x8175, 0x8000),
        (0xc371, 0x3cb7, 0xc116, 0xc463),
        (0x3f8e, 0x5a71, 0x5a80, 0x5e15),
        (0x0885, 0x8885, 0x0000, 0x8000),
        (0x1c43, 0xf2bb, 0xf2bb, 0xd32c),
        (0xa99e, 0x3f4d, 0x3f20, 0xad20),
        (0x6a73, 0xd667, 0x6a40, 0xfc00),
        (0xc80b, 0x480b, 0x0000, 0xd416),
        (0x31f9, 0x75da, 0x75da, 0x6c5e),
        (0x39b1, 0xed82, 0xed82, 0xebd6),
        (0xead9, 0x714c, 0x6f2c, 0xfc00),
        (0xa2ae, 0x22ae, 0x0000, 0x8994),
        (0xc987, 0xd7d4, 0xd842, 0x6569),
        (0x697b, 0xcf69, 0x696c, 0xfc00),
        (0xd2b7, 0x9ad2, 0xd2b7, 0x31ba),
        (0xf967, 0x7967, 0x0000, 0xfc00),
        (0x57fb, 0xf794, 0xf78c, 0xfc00),
        (0xbd7b, 0xc441, 0xc5a0, 0x45d4),
        (0x9b89, 0x0efe, 0x9aa9, 0x801a),
        (0xf963, 0x7963, 0x0000, 0xfc00),
        (0x6b79, 0xb1ef, 0x6b79, 0xe18b),
        (0x614c, 0x9c8e, 0x614c, 0xc208),
        (0x5837, 0x4347, 0x5854, 0x5fab),
        (0xce01, 0x4e01, 0x0000, 0xe082),
        (0x980e, 0xaabe, 0xaaff, 0x06d6),
        (0xba6b, 0x5bdf, 0x5bd9, 0xda51),
        (0x18a8, 0x7499, 0x7499, 0x515a),
        (0xa230, 0x2230, 0x0000, 0x88c9),
        (0xae42, 0x419e, 0x416c, 0xb465),
        (0x8c9d, 0x44c4, 0x44c4, 0x957f),
        (0xdb4d, 0xb1bb, 0xdb4e, 0x513b),
        (0x4618, 0xc618, 0x0000, 0xd0a4),
        (0x4df1, 0x3b2a, 0x4e2a, 0x4d52),
        (0xe7dc, 0x8d13, 0xe7dc, 0x38fc),
        (0xeac9, 0xcb5c, 0xead0, 0x7a3e),
        (0x8bca, 0x0bca, 0x0000, 0x8001),
        (0xdd89, 0xe072, 0xe336, 0x7c00),
        (0x3d32, 0x2948, 0x3d5c, 0x2adc),
        (0x8d1a, 0xbe80, 0xbe80, 0x1025),
        (0x3ffd, 0xbffd, 0x0000, 0xc3fa),
        (0x0f2b, 0x09f5, 0x1113, 0x0001),
        (0x18a6, 0x8917, 0x1855, 0x8006),
        (0x65c5, 0xdc4e, 0x64b2, 0xfc00),
        (0x6476, 0xe476, 0x0000, 0xfc00),
        (0x1878, 0x8648, 0x1846, 0x8004),
        (0x8944, 0x0b56, 0x0424, 0x8001),
    ];

    #[test]
    fn binary16_matches_the_hardware() {
        assert!(HALVES.len() >= 40);
        for &(a, b, sum, product) in HALVES {
            let (a, b) = (a as u128, b as u128);
            assert_eq!(HALF.add(a, b), sum as u128, "{a:x} + {b:x}");
            assert_eq!(HALF.mul(a, b), product as u128, "{a:x} * {b:x}");
        }
    }

    #[test]
    fn specials() {
        let one = x87("0000000000000080ff3f");
        let infinity = X87.infinity(false);
        assert_eq!(X87.add(one, X87.negate(one)), X87.zero(false));
        assert_eq!(X87.add(X87.zero(true), X87.zero(true)), X87.zero(true));
        assert_eq!(X87.add(infinity, X87.negate(infinity)), X87.default_nan());
        assert_eq!(X87.mul(infinity, X87.zero(false)), X87.default_nan());
        assert_eq!(X87.mul(X87.negate(infinity), one), X87.negate(infinity));
        let signalling = X87.infinity(false) | 1;
        assert_eq!(X87.add(signalling, one), signalling | X87.quiet_bit());
        // 1 + (2^-64 + 2^-127): just above half an ulp of 1, though the 2^-127 falls below
        // every bit kept while adding: it must still round up.
        let above_half = (0x3fbf << 64) | 0x8000_0000_0000_0001;
        assert_eq!(
            X87.add(one, above_half),
            (0x3fff << 64) | 0x8000_0000_0000_0001
        );
        assert_eq!(X87.add(one, above_half & !1), one, "exactly half: to even");
        assert_eq!(HALF.add(0x3c00, 0x3c00), 0x4000, "1 + 1 = 2");
        assert_eq!(HALF.mul(0x7bff, 0x4000), 0x7c00, "65504 * 2 overflows");
        assert_eq!(
            HALF.mul(0x0001, 0x3800),
            0x0000,
            "half the smallest subnormal: a tie to 0"
        );
        assert_eq!(
            HALF.mul(0x0003, 0x3800),
            0x0002,
            "1.5 subnormal ulps: a tie to even"
        );
    }
}
