//! Addition and multiplication of binary16 and x87 80-bit extended values in software,
//! correctly rounded to nearest-even as the hardware does (Rust has no such types). A
//! product of two significands of at most 64 bits is exact in a `u128`, so both formats
//! need nothing wider; binary128 would, and is left out.

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
            ) => self.round(sign, ma * mb, ea + eb),
        }
    }

    /// `-a`.
    pub(super) fn negate(self, a: u128) -> u128 {
        a ^ (1 << self.sign_shift())
    }
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
