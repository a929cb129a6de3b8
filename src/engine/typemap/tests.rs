use super::*;

const INT: Basic = Basic::Int {
    family: IntFamily::C,
    bytes: 4,
    external: 4,
    signed: true,
};
const SHORT: Basic = Basic::Int {
    family: IntFamily::C,
    bytes: 2,
    external: 2,
    signed: true,
};
const LONG: Basic = Basic::Int {
    family: IntFamily::C,
    bytes: 8,
    external: 4,
    signed: true,
};

fn leaf(kind: Basic) -> Arc<TypeMap> {
    Arc::new(TypeMap::basic(kind, None))
}

fn layout(t: &TypeMap) -> (u64, i64, i64, i64, i64) {
    (t.size(), t.lb(), t.extent(), t.true_lb(), t.true_extent())
}

#[test]
fn contiguous_and_vector_layouts() {
    let double = leaf(Basic::Real(8));
    let c = contiguous(3, &double, false).unwrap();
    assert_eq!(layout(&c), (24, 0, 24, 0, 24));
    assert_eq!(c.combiner(), Combiner::Contiguous);
    assert_eq!(c.contents().integers, vec![3]);
    // MPI-4.1 §5.1.2's example: vector(2, 3, 4) of a type with extent 16 (a double and a
    // char, padded): blocks at 0 and 64, each three copies; extent 64 + 48 = 112.
    let dc = Arc::new(
        create_struct(
            &[1, 1],
            &[0, 8],
            &[double.clone(), leaf(Basic::Char)],
            false,
        )
        .unwrap(),
    );
    assert_eq!(layout(&dc), (9, 0, 16, 0, 9));
    let v = vector(2, 3, 4, &dc, false).unwrap();
    assert_eq!(v.size(), 54);
    assert_eq!(v.extent(), 112);
    assert_eq!(v.true_extent(), 64 + 32 + 9);
    assert_eq!(v.contents().integers, vec![2, 3, 4]);
    // Negative stride: blocks at 0 and -64.
    let v = vector(2, 1, -4, &dc, false).unwrap();
    assert_eq!(
        (v.lb(), v.extent(), v.true_lb(), v.true_extent()),
        (-64, 80, -64, 73)
    );
    let h = hvector(2, 3, 100, &double, true).unwrap();
    assert_eq!(layout(&h), (48, 0, 124, 0, 124));
    assert_eq!(h.contents().large, vec![2, 3, 100]);
    assert!(h.contents().integers.is_empty());
    assert_eq!(
        vector(-1, 1, 1, &double, false).unwrap_err(),
        Error::InvalidCount
    );
    assert_eq!(
        vector(1, -1, 1, &double, false).unwrap_err(),
        Error::InvalidCount
    );
}

#[test]
fn indexed_family_layouts() {
    let int = leaf(INT);
    // MPI-4.1 §5.1.2's indexed example: blocklengths (3, 1), displacements (4, 0).
    let t = indexed(&[3, 1], &[4, 0], &int, false).unwrap();
    assert_eq!(layout(&t), (16, 0, 28, 0, 28));
    assert_eq!(t.contents().integers, vec![2, 3, 1, 4, 0]);
    let flat = t.flat();
    assert_eq!(
        flat.blocks().collect::<Vec<_>>(),
        vec![Block { disp: 16, len: 12 }, Block { disp: 0, len: 4 }]
    );
    let t = hindexed(&[2, 1], &[-8, 20], &int, false).unwrap();
    assert_eq!(layout(&t), (12, -8, 32, -8, 32));
    assert_eq!(t.contents().integers, vec![2, 2, 1]);
    assert_eq!(t.contents().addresses, vec![-8, 20]);
    let t = indexed_block(2, &[0, 5], &int, false).unwrap();
    assert_eq!(layout(&t), (16, 0, 28, 0, 28));
    assert_eq!(t.contents().integers, vec![2, 2, 0, 5]);
    let t = hindexed_block(2, &[0, 8], &int, false).unwrap();
    // Adjacent blocks merge into one.
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        vec![Block { disp: 0, len: 16 }]
    );
    assert_eq!(t.contents().addresses, vec![0, 8]);
    assert_eq!(
        indexed(&[1], &[0, 1], &int, false).unwrap_err(),
        Error::InvalidArgument("array lengths differ")
    );
    assert_eq!(
        indexed(&[-1], &[0], &int, false).unwrap_err(),
        Error::InvalidCount
    );
    // Zero blocks: the empty type map, lb = ub = 0.
    let t = indexed(&[], &[], &int, false).unwrap();
    assert_eq!(layout(&t), (0, 0, 0, 0, 0));
}

#[test]
fn struct_padding_and_resized() {
    let double = leaf(Basic::Real(8));
    let char_ = leaf(Basic::Char);
    // struct { char c; double d; char e; }: 0, 8, 16 → 17 padded to 24.
    let s = create_struct(
        &[1, 1, 1],
        &[0, 8, 16],
        &[char_.clone(), double.clone(), char_.clone()],
        false,
    )
    .unwrap();
    assert_eq!(layout(&s), (10, 0, 24, 0, 17));
    assert_eq!(s.combiner(), Combiner::Struct);
    assert_eq!(s.contents().integers, vec![3, 1, 1, 1]);
    assert_eq!(s.contents().types.len(), 3);
    // Resizing sets lb and extent; the true extent does not change.
    let r = Arc::new(resized(&double, -4, 20, false).unwrap());
    assert_eq!(layout(&r), (8, -4, 20, 0, 8));
    assert_eq!(r.contents().addresses, vec![-4, 20]);
    // A struct of a resized type is not padded again.
    let s = create_struct(&[1, 1], &[0, 16], &[r.clone(), char_.clone()], false).unwrap();
    assert_eq!((s.lb(), s.extent()), (-4, 21));
    // Contiguous copies of a resized type are placed one extent apart.
    let c = contiguous(2, &r, false).unwrap();
    assert_eq!(
        c.flat().blocks().collect::<Vec<_>>(),
        vec![Block { disp: 0, len: 8 }, Block { disp: 20, len: 8 }]
    );
    assert_eq!((c.lb(), c.extent(), c.true_extent()), (-4, 40, 28));
    let pair = TypeMap::pair(Basic::Real(8), INT, 8, None);
    assert_eq!(layout(&pair), (12, 0, 16, 0, 12));
    assert_eq!(pair.signature(), vec![(Basic::Real(8), 1), (INT, 1)]);
}

#[test]
fn subarray_c_and_fortran() {
    let int = leaf(INT);
    // A 4x5 C array, the 2x3 block at (1, 2): rows 1 and 2, columns 2..5.
    let t = subarray(&[4, 5], &[2, 3], &[1, 2], Order::C, 56, &int, false).unwrap();
    assert_eq!(t.size(), 24);
    assert_eq!((t.lb(), t.extent()), (0, 80));
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        vec![Block { disp: 28, len: 12 }, Block { disp: 48, len: 12 }]
    );
    assert_eq!(t.true_lb(), 28);
    assert_eq!(t.combiner(), Combiner::Subarray);
    assert_eq!(t.contents().integers, vec![2, 4, 5, 2, 3, 1, 2, 56]);
    // The same in Fortran order: the first index varies fastest.
    let t = subarray(&[5, 4], &[3, 2], &[2, 1], Order::Fortran, 57, &int, true).unwrap();
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        vec![Block { disp: 28, len: 12 }, Block { disp: 48, len: 12 }]
    );
    assert_eq!(t.contents().integers, vec![2, 57]);
    assert_eq!(t.contents().large, vec![5, 4, 3, 2, 2, 1]);
    assert!(subarray(&[4], &[3], &[2], Order::C, 56, &int, false).is_err());
    assert!(subarray(&[], &[], &[], Order::C, 56, &int, false).is_err());
}

#[test]
fn darray_block_and_cyclic() {
    let int = leaf(INT);
    let dim = |gsize, distrib, darg, psize| DarrayDim {
        gsize,
        distrib,
        darg,
        psize,
    };
    let codes = |n: usize| DarrayCodes {
        distribs: vec![121; n],
        dargs: vec![-49767; n],
        order: 56,
    };
    // 1-D, 10 elements on 3 processes, block: 4, 4, 2; rank 2 owns 8 and 9.
    let t = darray(
        3,
        2,
        &[dim(10, Distribution::Block, None, 3)],
        Order::C,
        &codes(1),
        &int,
        false,
    )
    .unwrap();
    assert_eq!((t.size(), t.lb(), t.extent()), (8, 0, 40));
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        vec![Block { disp: 32, len: 8 }]
    );
    assert_eq!(t.combiner(), Combiner::Darray);
    assert_eq!(t.contents().integers, vec![3, 2, 1, 10, 121, -49767, 3, 56]);
    // Cyclic(2) on 2 processes: rank 1 owns 2,3, 6,7, 10.
    let t = darray(
        2,
        1,
        &[dim(11, Distribution::Cyclic, Some(2), 2)],
        Order::C,
        &codes(1),
        &int,
        true,
    )
    .unwrap();
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        vec![
            Block { disp: 8, len: 8 },
            Block { disp: 24, len: 8 },
            Block { disp: 40, len: 4 }
        ]
    );
    assert_eq!(t.contents().large, vec![11]);
    // 2-D C order, 4x6 on a 2x2 grid, block both ways: rank 1 = coords (0, 1) owns rows
    // 0..2, columns 3..6 - the same as the subarray.
    let dims = [
        dim(4, Distribution::Block, None, 2),
        dim(6, Distribution::Block, None, 2),
    ];
    let t = darray(4, 1, &dims, Order::C, &codes(2), &int, false).unwrap();
    let s = subarray(&[4, 6], &[2, 3], &[0, 3], Order::C, 56, &int, false).unwrap();
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        s.flat().blocks().collect::<Vec<_>>()
    );
    assert_eq!((t.lb(), t.extent()), (s.lb(), s.extent()));
    // Fortran order: the first dimension varies fastest.
    let t = darray(4, 1, &dims, Order::Fortran, &codes(2), &int, false).unwrap();
    let s = subarray(&[4, 6], &[2, 3], &[0, 3], Order::Fortran, 57, &int, false).unwrap();
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        s.flat().blocks().collect::<Vec<_>>()
    );
    // Errors.
    let bad = |dims: &[DarrayDim], size, rank| {
        darray(size, rank, dims, Order::C, &codes(dims.len()), &int, false).is_err()
    };
    assert!(bad(&[dim(10, Distribution::Block, None, 3)], 4, 0));
    assert!(bad(&[dim(10, Distribution::Block, None, 3)], 3, 3));
    assert!(bad(&[dim(10, Distribution::Block, Some(3), 3)], 3, 0));
    assert!(bad(&[dim(10, Distribution::None, None, 3)], 3, 0));
    assert!(bad(&[dim(10, Distribution::Cyclic, Some(0), 1)], 1, 0));
}

#[test]
fn elements_and_count() {
    let pair = Arc::new(TypeMap::pair(Basic::Real(8), INT, 8, None));
    let c = contiguous(2, &pair, false).unwrap();
    assert_eq!(c.size(), 24);
    assert_eq!(get_count(&c, 48), Some(2));
    assert_eq!(get_count(&c, 36), None);
    assert_eq!(get_elements(&c, 48), Some(8));
    assert_eq!(get_elements(&c, 36), Some(6));
    assert_eq!(get_elements(&c, 8), Some(1));
    assert_eq!(get_elements(&c, 20), Some(3));
    assert_eq!(get_elements(&c, 10), None);
    assert_eq!(get_elements(&c, 0), Some(0));
    // MPI_Status_set_elements' bytes give the same elements back.
    for elements in 0..=9 {
        let bytes = elements_bytes(&c, elements).unwrap();
        assert_eq!(
            get_elements(&c, bytes),
            Some(elements),
            "{elements} elements"
        );
    }
    assert_eq!(elements_bytes(&c, 3), Some(20));
    assert_eq!(elements_bytes(&c, 9), Some(56));
    let empty = contiguous(0, &pair, false).unwrap();
    assert_eq!(elements_bytes(&empty, 0), Some(0));
    assert_eq!(elements_bytes(&empty, 1), None);
}

#[test]
fn external32_conversions() {
    let long = TypeMap::basic(LONG, None);
    assert_eq!(pack_external_size(&long, 2).unwrap(), 8);
    let src: Vec<u8> = [-2i64, 7].iter().flat_map(|v| v.to_ne_bytes()).collect();
    let mut out = vec![0u8; 8];
    let mut pos = 0;
    pack_external(&long, 2, &src, 0, &mut out, &mut pos).unwrap();
    assert_eq!(out, vec![0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 7]);
    let mut back = vec![0u8; 16];
    let mut pos = 0;
    unpack_external(&out, &mut pos, &long, 2, &mut back, 0).unwrap();
    assert_eq!(back, src);
    let double = TypeMap::basic(Basic::Real(8), None);
    let src = 1.5f64.to_ne_bytes();
    let mut out = vec![0u8; 8];
    pack_external(&double, 1, &src, 0, &mut out, &mut 0).unwrap();
    assert_eq!(out, 1.5f64.to_be_bytes());
    if X87 {
        // 1.5 as x87 extended: significand 0xC000..., exponent 0x3fff.
        let mut native = [0u8; 16];
        native[..8].copy_from_slice(&0xC000_0000_0000_0000u64.to_le_bytes());
        native[8..10].copy_from_slice(&0x3fffu16.to_le_bytes());
        let ld = TypeMap::basic(Basic::LongDouble, None);
        let mut out = vec![0u8; 16];
        pack_external(&ld, 1, &native, 0, &mut out, &mut 0).unwrap();
        let mut quad = [0u8; 16];
        quad[0] = 0x3f;
        quad[1] = 0xff;
        quad[2] = 0x80;
        assert_eq!(out, quad);
        let mut back = [0u8; 16];
        unpack_external(&out, &mut 0, &ld, 1, &mut back, 0).unwrap();
        assert_eq!(back, native);
    }
}

#[test]
fn buffers_are_checked() {
    let int = leaf(INT);
    let t = hindexed(&[1], &[-4], &int, false).unwrap();
    let src = [0u8; 8];
    let mut out = [0u8; 8];
    assert!(matches!(
        pack(&t, 1, &src, 0, &mut out, &mut 0),
        Err(Error::InvalidArgument(_))
    ));
    pack(&t, 1, &src, 4, &mut out, &mut 0).unwrap();
    let mut pos = 6;
    assert!(matches!(
        pack(&t, 1, &src, 4, &mut out, &mut pos),
        Err(Error::Truncated { .. })
    ));
    assert_eq!(pos, 6);
    // A type whose data starts past the buffer address: the slice may start at the data, the
    // buffer address then lies before it (a negative origin, as with absolute addresses).
    let later = hindexed(&[1], &[8], &int, false).unwrap();
    let data = 7i32.to_ne_bytes();
    let mut packed = [0u8; 4];
    pack(&later, 1, &data, -8, &mut packed, &mut 0).unwrap();
    assert_eq!(packed, data);
    assert!(matches!(
        pack(&later, 1, &data, -9, &mut packed, &mut 0),
        Err(Error::InvalidArgument(_))
    ));
    let mut dst = [0u8; 4];
    assert!(matches!(
        copy(&int, 2, &src, 0, &int, 1, &mut dst, 0),
        Err(Error::Truncated { .. })
    ));
}

#[test]
fn million_block_indexed_commits() {
    let int = leaf(INT);
    let n = 1_000_000;
    let lengths = vec![1i64; n];
    let displacements: Vec<i64> = (0..n as i64).map(|i| 2 * i).collect();
    let t = indexed(&lengths, &displacements, &int, false).unwrap();
    assert_eq!(t.flat().blocks().collect::<Vec<_>>().len(), n);
    assert_eq!(t.size(), 4 * n as u64);
    // Every other int: all adjacent, one block.
    let displacements: Vec<i64> = (0..n as i64).collect();
    let t = indexed(&lengths, &displacements, &int, false).unwrap();
    assert_eq!(
        t.flat().blocks().collect::<Vec<_>>(),
        vec![Block {
            disp: 0,
            len: 4 * n as u64
        }]
    );
}

// ---- property test against a naive reference -------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, low: i64, high: i64) -> i64 {
        low + self.below((high - low + 1) as u64) as i64
    }
}

/// Every element (displacement, kind) of one item, in type-map order, walking the tree.
fn reference(map: &TypeMap, base: i64, out: &mut Vec<(i64, Basic)>) {
    if let Some(kind) = map.basic {
        out.push((base, kind));
        return;
    }
    for part in &map.parts {
        for r in 0..part.repeat as i64 {
            for b in 0..part.blocklength as i64 {
                reference(
                    &part.child,
                    base + part.disp + r * part.stride + b * part.child.extent(),
                    out,
                );
            }
        }
    }
}

fn random_type(rng: &mut Rng, depth: u32) -> Arc<TypeMap> {
    let kinds = [INT, SHORT, Basic::Real(8), Basic::Char, Basic::Complex(4)];
    if depth == 0 || rng.below(4) == 0 {
        return leaf(kinds[rng.below(kinds.len() as u64) as usize]);
    }
    let old = random_type(rng, depth - 1);
    let large = rng.below(2) == 0;
    let n = rng.below(4) as usize;
    let map = match rng.below(9) {
        0 => contiguous(rng.range(0, 3), &old, large),
        1 => vector(
            rng.range(0, 3),
            rng.range(0, 3),
            rng.range(-4, 4),
            &old,
            large,
        ),
        2 => hvector(
            rng.range(0, 3),
            rng.range(0, 3),
            rng.range(-40, 40),
            &old,
            large,
        ),
        3 => {
            let l: Vec<i64> = (0..n).map(|_| rng.range(0, 3)).collect();
            let d: Vec<i64> = (0..n).map(|_| rng.range(-5, 5)).collect();
            indexed(&l, &d, &old, large)
        }
        4 => {
            let l: Vec<i64> = (0..n).map(|_| rng.range(0, 3)).collect();
            let d: Vec<i64> = (0..n).map(|_| rng.range(-50, 50)).collect();
            hindexed(&l, &d, &old, large)
        }
        5 => {
            let d: Vec<i64> = (0..n).map(|_| rng.range(-5, 5)).collect();
            indexed_block(rng.range(0, 3), &d, &old, large)
        }
        6 => {
            let l: Vec<i64> = (0..n).map(|_| rng.range(0, 3)).collect();
            let d: Vec<i64> = (0..n).map(|_| rng.range(-50, 50)).collect();
            let t: Vec<Arc<TypeMap>> = (0..n)
                .map(|i| {
                    if i == 0 {
                        old.clone()
                    } else {
                        random_type(rng, depth - 1)
                    }
                })
                .collect();
            create_struct(&l, &d, &t, large)
        }
        7 => resized(&old, rng.range(-16, 16), rng.range(-8, 64), large),
        _ => {
            let sizes = [rng.range(1, 4), rng.range(1, 4)];
            let sub = [rng.range(0, sizes[0]), rng.range(0, sizes[1])];
            let starts = [
                rng.range(0, sizes[0] - sub[0]),
                rng.range(0, sizes[1] - sub[1]),
            ];
            let order = if rng.below(2) == 0 {
                Order::C
            } else {
                Order::Fortran
            };
            subarray(&sizes, &sub, &starts, order, 0, &old, large)
        }
    };
    Arc::new(map.unwrap())
}

fn buffer(map: &TypeMap, count: u64, rng: &mut Rng) -> (Vec<u8>, isize) {
    match map.span(count) {
        None => (Vec::new(), 0),
        Some((low, high)) => {
            // The buffer address is inside the buffer or at its start.
            let low = low.min(0);
            let len = (high - low) as usize;
            let data = (0..len).map(|_| rng.next() as u8).collect();
            (data, (-low) as isize)
        }
    }
}

fn elements(map: &TypeMap, count: u64) -> Vec<(i64, Basic)> {
    let mut one = Vec::new();
    reference(map, 0, &mut one);
    let mut all = Vec::new();
    for i in 0..count as i64 {
        all.extend(one.iter().map(|(d, k)| (d + i * map.extent(), *k)));
    }
    all
}

#[test]
fn random_type_trees_match_the_reference() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..400 {
        let map = random_type(&mut rng, 4);
        let count = rng.below(3);
        let (src, origin) = buffer(&map, count, &mut rng);
        let elems = elements(&map, count);
        // Pack against the reference.
        let mut expected = Vec::new();
        for (d, k) in &elems {
            let at = (origin as i64 + d) as usize;
            expected.extend_from_slice(&src[at..at + k.size() as usize]);
        }
        assert_eq!(pack_size(&map, count).unwrap(), expected.len() as u64);
        if count > 0 && !elems.is_empty() {
            let low = elems.iter().map(|(d, _)| *d).min().unwrap();
            let high = elems
                .iter()
                .map(|(d, k)| d + k.size() as i64)
                .max()
                .unwrap();
            let mut one = Vec::new();
            reference(&map, 0, &mut one);
            let t_low = one.iter().map(|(d, _)| *d).min().unwrap();
            let t_high = one.iter().map(|(d, k)| d + k.size() as i64).max().unwrap();
            assert_eq!(
                (map.true_lb(), map.true_extent()),
                (t_low, t_high - t_low),
                "{map:?}"
            );
            assert_eq!(map.span(count), Some((low as i128, high as i128)));
        }
        let mut packed = vec![0u8; expected.len()];
        let mut pos = 0;
        pack(&map, count, &src, origin, &mut packed, &mut pos).unwrap();
        assert_eq!(pos, expected.len());
        assert_eq!(packed, expected);
        // Unpack against the reference (later elements overwrite earlier ones alike).
        let (mut dst, dorigin) = buffer(&map, count, &mut rng);
        let mut reference_dst = dst.clone();
        let mut p = 0;
        for (d, k) in &elems {
            let at = (dorigin as i64 + d) as usize;
            let n = k.size() as usize;
            reference_dst[at..at + n].copy_from_slice(&packed[p..p + n]);
            p += n;
        }
        let mut pos = 0;
        unpack(&packed, &mut pos, &map, count, &mut dst, dorigin).unwrap();
        assert_eq!(dst, reference_dst);
        // External32 against the reference: each element's bytes reversed (complex: each
        // half), and back.
        let mut ext_expected = Vec::new();
        let mut p = 0;
        for (_, k) in &elems {
            let n = k.size() as usize;
            let element = &packed[p..p + n];
            let mut converted = vec![0u8; n];
            k.write_external(element, &mut converted);
            ext_expected.extend(converted);
            p += n;
        }
        let mut ext = vec![0u8; pack_external_size(&map, count).unwrap() as usize];
        pack_external(&map, count, &src, origin, &mut ext, &mut 0).unwrap();
        assert_eq!(ext, ext_expected);
        let mut back = vec![0u8; dst.len()];
        let mut via_native = back.clone();
        unpack_external(&ext, &mut 0, &map, count, &mut back, dorigin).unwrap();
        unpack(&packed, &mut 0, &map, count, &mut via_native, dorigin).unwrap();
        assert_eq!(back, via_native);
        // Typed copy into another random type with the same byte count: a contiguous
        // run of bytes.
        let bytes_type = leaf(Basic::Byte);
        let (mut dst2, o2) = buffer(&bytes_type, expected.len() as u64, &mut rng);
        let copied = copy(
            &map,
            count,
            &src,
            origin,
            &bytes_type,
            expected.len() as u64,
            &mut dst2,
            o2,
        )
        .unwrap();
        assert_eq!(copied, expected.len() as u64);
        assert_eq!(dst2, expected);
        // And back from bytes into the type.
        let (mut dst3, o3) = buffer(&map, count, &mut rng);
        let mut reference3 = dst3.clone();
        unpack(&expected, &mut 0, &map, count, &mut reference3, o3).unwrap();
        copy(
            &bytes_type,
            expected.len() as u64,
            &dst2,
            o2,
            &map,
            count,
            &mut dst3,
            o3,
        )
        .unwrap();
        assert_eq!(dst3, reference3);
        // Get_elements from every byte count against the reference element list.
        let mut ends = vec![0u64];
        for (_, k) in &elems {
            ends.push(ends.last().unwrap() + k.size());
        }
        for bytes in 0..=expected.len() as u64 {
            let want = ends.iter().position(|&e| e == bytes).map(|i| i as u64);
            if map.size() > 0 {
                assert_eq!(get_elements(&map, bytes), want, "{bytes} bytes");
            }
        }
    }
}

#[test]
fn a_duplicate_shares_the_compiled_form_and_layout() {
    let double = leaf(Basic::Real(8));
    let v = Arc::new(vector(3, 2, 4, &double, false).unwrap());
    // Not compiled yet: the duplicate compiles its own when asked.
    let early = dup(&v).unwrap();
    assert!(early.flat.get().is_none());
    let blocks: Vec<_> = v.flat().blocks().collect();
    let late = dup(&v).unwrap();
    assert!(
        std::ptr::eq(late.flat(), v.flat()),
        "a committed type's compiled form is shared"
    );
    assert_eq!(late.flat().blocks().collect::<Vec<_>>(), blocks);
    assert_eq!(early.flat().blocks().collect::<Vec<_>>(), blocks);
    assert_eq!(layout(&late), layout(&v));
    assert_eq!(late.combiner(), Combiner::Dup);
}
