//! The datatype chapter's Rust API on [`Universe`]: constructors, layout queries, envelope
//! and contents, and the memory operations on handles. The type maps themselves are in
//! [`typemap`](super::typemap); these methods look handles up and register new types.
//!
//! Counts and displacements are `i64` everywhere so the `_c` and `_x` forms are exact; the
//! `large` flag of a constructor says whether the program called the `_c` form, which decides
//! where MPI_Type_get_contents returns the arguments (MPI-4.1 §5.1.13).

use std::sync::Arc;

use super::typemap::{self, Combiner, Order, TypeMap};
use super::{Datatype, Detail, Error, ErrorHandler, ObjectData, ObjectKind, Result, Universe};

/// What MPI_Type_get_envelope returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeEnvelope {
    /// Number of int arguments.
    pub integers: usize,
    /// Number of MPI_Aint arguments.
    pub addresses: usize,
    /// Number of MPI_Count arguments (non-zero only for types made by `_c` constructors; the
    /// shell of the non-`_c` MPI_Type_get_envelope reports those as an error).
    pub large: usize,
    /// Number of datatype arguments.
    pub datatypes: usize,
    /// The combiner.
    pub combiner: Combiner,
}

/// What MPI_Type_get_contents returns: the constructor's arguments, with datatype handles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeContents {
    /// The int arguments.
    pub integers: Vec<i64>,
    /// The MPI_Aint arguments.
    pub addresses: Vec<i64>,
    /// The MPI_Count arguments.
    pub large: Vec<i64>,
    /// Predefined arguments as themselves; derived ones as new handles the caller must free.
    pub datatypes: Vec<Datatype>,
}

/// The type classes of MPI_Type_match_size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    /// MPI_TYPECLASS_INTEGER.
    Integer,
    /// MPI_TYPECLASS_REAL.
    Real,
    /// MPI_TYPECLASS_COMPLEX.
    Complex,
}

fn predefined_named(name: &str) -> Option<Datatype> {
    super::datatypes::PREDEFINED
        .iter()
        .position(|p| p.c_name() == name)
        .map(|index| Datatype(super::predefined_id(index as u32)))
}

/// Fortran INTEGER kinds: bytes and decimal exponent range.
const INTEGER_KINDS: [(u8, i64); 5] = [(1, 2), (2, 4), (4, 9), (8, 18), (16, 38)];
/// IEEE REAL kinds: bytes, decimal precision, decimal exponent range.
const REAL_KINDS: [(u8, i64, i64); 3] = [(4, 6, 37), (8, 15, 307), (16, 33, 4931)];

impl Universe {
    /// MPI_Type_match_size: the predefined Fortran type of `class` with `size` bytes
    /// (MPI_INTEGERn, MPI_REALn, MPI_COMPLEXn); MPI_ERR_ARG if there is none.
    pub fn type_match_size(class: TypeClass, size: i64) -> Result<Datatype> {
        let name = match class {
            TypeClass::Integer => format!("MPI_INTEGER{size}"),
            TypeClass::Real => format!("MPI_REAL{size}"),
            TypeClass::Complex => format!("MPI_COMPLEX{size}"),
        };
        predefined_named(&name).ok_or(Error::InvalidArgument("no predefined type of that size"))
    }

    /// MPI_Type_create_f90_integer: a type for the smallest Fortran INTEGER kind with at least
    /// `r` decimal digits of range (MPI-4.1 §19.1.9). Combiner F90_INTEGER, contents `[r]`;
    /// it cannot be freed. Each call makes a new handle. MPI_ERR_ARG if no kind fits.
    pub fn type_f90_integer(&self, r: i64) -> Result<Datatype> {
        let (bytes, _) = INTEGER_KINDS
            .iter()
            .find(|(_, range)| *range >= r)
            .ok_or(Error::InvalidArgument("no INTEGER kind has that range"))?;
        let kind = typemap::Basic::Int {
            family: typemap::IntFamily::Fortran,
            bytes: *bytes,
            external: *bytes,
            signed: true,
        };
        let contents = typemap::Contents {
            integers: vec![r],
            ..Default::default()
        };
        self.type_parameterized(kind, Combiner::F90Integer, contents)
    }

    /// MPI_Type_create_f90_real and _complex: the smallest REAL kind with at least `p`
    /// decimal digits and `r` exponent range (`None` for MPI_UNDEFINED; `p_code`/`r_code`
    /// are the values passed, kept for get_contents). MPI_ERR_ARG if no kind fits or both
    /// are undefined.
    pub fn type_f90_real(
        &self,
        p: Option<i64>,
        r: Option<i64>,
        codes: (i64, i64),
        complex: bool,
    ) -> Result<Datatype> {
        if p.is_none() && r.is_none() {
            return Err(Error::InvalidArgument("p and r both MPI_UNDEFINED"));
        }
        let (bytes, _, _) = REAL_KINDS
            .iter()
            .find(|(_, prec, range)| {
                p.map_or(true, |p| *prec >= p) && r.map_or(true, |r| *range >= r)
            })
            .ok_or(Error::InvalidArgument(
                "no REAL kind has that precision and range",
            ))?;
        let contents = typemap::Contents {
            integers: vec![codes.0, codes.1],
            ..Default::default()
        };
        if complex {
            self.type_parameterized(
                typemap::Basic::Complex(*bytes),
                Combiner::F90Complex,
                contents,
            )
        } else {
            self.type_parameterized(typemap::Basic::Real(*bytes), Combiner::F90Real, contents)
        }
    }

    fn type_parameterized(
        &self,
        kind: typemap::Basic,
        combiner: Combiner,
        contents: typemap::Contents,
    ) -> Result<Datatype> {
        let map = TypeMap::basic(kind, None).with_contents(combiner, contents, false);
        map.flat();
        let mut state = self.lock()?;
        state.room(ObjectKind::Datatype)?;
        let mut data = ObjectData::new(
            Detail::datatype(Arc::new(map), true, Vec::new()),
            ErrorHandler::Fatal,
        );
        // Like a predefined type: committed and never freed.
        data.predefined = true;
        Ok(Datatype(state.insert(ObjectKind::Datatype, data)?))
    }

    /// MPI_Type_get_name: the bytes MPI_Type_set_name gave, a predefined type's own name
    /// (`MPI_INT`) until renamed, empty for a derived type never named (MPI-4.1 §7.8).
    pub fn type_name(&self, datatype: Datatype) -> Result<Vec<u8>> {
        match &self
            .lock()?
            .object(ObjectKind::Datatype, datatype.0)?
            .detail
        {
            Detail::Datatype { name, .. } => Ok(name.clone()),
            _ => Err(Error::InvalidType("not a datatype")),
        }
    }

    /// MPI_Type_set_name: any bytes, kept as they are (the shells cut them to
    /// MPI_MAX_OBJECT_NAME - 1); predefined types can be renamed too. A duplicate starts
    /// without a name.
    pub fn set_type_name(&self, datatype: Datatype, new_name: &[u8]) -> Result<()> {
        match &mut self
            .lock()?
            .object_mut(ObjectKind::Datatype, datatype.0)?
            .detail
        {
            Detail::Datatype { name, .. } => {
                *name = new_name.to_vec();
                Ok(())
            }
            _ => Err(Error::InvalidType("not a datatype")),
        }
    }

    /// The type map of a datatype (committed or not).
    pub fn type_map(&self, datatype: Datatype) -> Result<Arc<TypeMap>> {
        let (map, dups) = self.type_layout_dups(datatype, false)?;
        Detail::datatype_map(&map, dups)
    }

    /// The type map of a committed datatype; MPI_ERR_TYPE if it is not committed. Use it for
    /// every operation that moves data.
    pub fn type_committed_map(&self, datatype: Datatype) -> Result<Arc<TypeMap>> {
        let (map, dups) = self.type_layout_dups(datatype, true)?;
        Detail::datatype_map(&map, dups)
    }

    /// A datatype's layout and its levels of MPI_Type_dup over it (see `Detail::Datatype`);
    /// with `committed`, MPI_ERR_TYPE if it is not committed.
    fn type_layout_dups(&self, datatype: Datatype, committed: bool) -> Result<(Arc<TypeMap>, u32)> {
        match &self
            .lock()?
            .object(ObjectKind::Datatype, datatype.0)?
            .detail
        {
            Detail::Datatype {
                committed: false, ..
            } if committed => Err(Error::NotCommitted),
            Detail::Datatype { map, dups, .. } => Ok((map.clone(), *dups)),
            _ => Err(Error::InvalidType("not a datatype")),
        }
    }

    /// A type map with the layout of a datatype (committed or not): its own, or for a
    /// duplicate the one it shares with its original, whose combiner and contents are the
    /// original's. For everything but the envelope and contents.
    pub(crate) fn type_layout(&self, datatype: Datatype) -> Result<Arc<TypeMap>> {
        Ok(self.type_layout_dups(datatype, false)?.0)
    }

    /// As [`Universe::type_layout`] for a committed datatype; MPI_ERR_TYPE if it is not
    /// committed. For every operation that moves data.
    pub(crate) fn type_committed_layout(&self, datatype: Datatype) -> Result<Arc<TypeMap>> {
        Ok(self.type_layout_dups(datatype, true)?.0)
    }

    /// Looks the children up, builds the map, registers it as a new uncommitted datatype
    /// without attributes. Nothing is created on error.
    pub(crate) fn type_build(
        &self,
        children: &[Datatype],
        build: impl FnOnce(&[Arc<TypeMap>]) -> Result<TypeMap>,
    ) -> Result<Datatype> {
        let maps = children
            .iter()
            .map(|child| self.type_map(*child))
            .collect::<Result<Vec<_>>>()?;
        let map = build(&maps)?;
        self.type_register(Arc::new(map), false)
    }

    fn type_register(&self, map: Arc<TypeMap>, committed: bool) -> Result<Datatype> {
        self.type_register_detail(Detail::datatype(map, committed, Vec::new()))
    }

    /// Registers a new uncommitted datatype without attributes that stands for `map` under
    /// `dups` levels of MPI_Type_dup.
    fn type_register_dups(&self, map: Arc<TypeMap>, dups: u32) -> Result<Datatype> {
        let mut detail = Detail::datatype(map, false, Vec::new());
        if let Detail::Datatype { dups: levels, .. } = &mut detail {
            *levels = dups;
        }
        self.type_register_detail(detail)
    }

    fn type_register_detail(&self, detail: Detail) -> Result<Datatype> {
        let mut state = self.lock()?;
        state.room(ObjectKind::Datatype)?;
        let data = ObjectData::new(detail, ErrorHandler::Fatal);
        Ok(Datatype(state.insert(ObjectKind::Datatype, data)?))
    }

    /// MPI_Type_contiguous(_c) with a large count.
    pub fn type_contiguous_c(&self, count: i64, old: Datatype, large: bool) -> Result<Datatype> {
        self.type_build(&[old], |m| typemap::contiguous(count, &m[0], large))
    }

    /// MPI_Type_vector(_c): stride in extents of `old`.
    pub fn type_vector(
        &self,
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::vector(count, blocklength, stride, &m[0], large)
        })
    }

    /// MPI_Type_create_hvector(_c): stride in bytes.
    pub fn type_hvector(
        &self,
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::hvector(count, blocklength, stride, &m[0], large)
        })
    }

    /// MPI_Type_indexed(_c): displacements in extents of `old`.
    pub fn type_indexed(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::indexed(blocklengths, displacements, &m[0], large)
        })
    }

    /// MPI_Type_create_hindexed(_c): displacements in bytes.
    pub fn type_hindexed(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::hindexed(blocklengths, displacements, &m[0], large)
        })
    }

    /// MPI_Type_create_indexed_block(_c).
    pub fn type_indexed_block(
        &self,
        blocklength: i64,
        displacements: &[i64],
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::indexed_block(blocklength, displacements, &m[0], large)
        })
    }

    /// MPI_Type_create_hindexed_block(_c).
    pub fn type_hindexed_block(
        &self,
        blocklength: i64,
        displacements: &[i64],
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::hindexed_block(blocklength, displacements, &m[0], large)
        })
    }

    /// MPI_Type_create_struct(_c).
    pub fn type_struct(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        types: &[Datatype],
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(types, |m| {
            typemap::create_struct(blocklengths, displacements, m, large)
        })
    }

    /// MPI_Type_create_subarray(_c). `order_code` is the program's MPI_ORDER_C or
    /// MPI_ORDER_FORTRAN value, kept for get_contents.
    #[allow(clippy::too_many_arguments)]
    pub fn type_subarray(
        &self,
        sizes: &[i64],
        subsizes: &[i64],
        starts: &[i64],
        order: Order,
        order_code: i64,
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::subarray(sizes, subsizes, starts, order, order_code, &m[0], large)
        })
    }

    /// MPI_Type_create_darray(_c): process `rank`'s part of a distributed global array.
    #[allow(clippy::too_many_arguments)]
    pub fn type_darray(
        &self,
        size: i64,
        rank: i64,
        dims: &[typemap::DarrayDim],
        order: Order,
        codes: &typemap::DarrayCodes,
        old: Datatype,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| {
            typemap::darray(size, rank, dims, order, codes, &m[0], large)
        })
    }

    /// MPI_Type_create_resized(_c).
    pub fn type_resized(
        &self,
        old: Datatype,
        lb: i64,
        extent: i64,
        large: bool,
    ) -> Result<Datatype> {
        self.type_build(&[old], |m| typemap::resized(&m[0], lb, extent, large))
    }

    /// MPI_Type_get_extent(_x/_c): (lb, extent).
    pub fn type_extent(&self, datatype: Datatype) -> Result<(i64, i64)> {
        let map = self.type_layout(datatype)?;
        Ok((map.lb(), map.extent()))
    }

    /// MPI_Type_get_true_extent(_x/_c): (true lb, true extent).
    pub fn type_true_extent(&self, datatype: Datatype) -> Result<(i64, i64)> {
        let map = self.type_layout(datatype)?;
        Ok((map.true_lb(), map.true_extent()))
    }

    /// MPI_Type_get_envelope(_c).
    pub fn type_envelope(&self, datatype: Datatype) -> Result<TypeEnvelope> {
        let (map, dups) = self.type_layout_dups(datatype, false)?;
        if dups > 0 {
            // MPI_Type_dup's one argument, the datatype duplicated.
            return Ok(TypeEnvelope {
                integers: 0,
                addresses: 0,
                large: 0,
                datatypes: 1,
                combiner: Combiner::Dup,
            });
        }
        let c = map.contents();
        Ok(TypeEnvelope {
            integers: c.integers.len(),
            addresses: c.addresses.len(),
            large: c.large.len(),
            datatypes: c.types.len(),
            combiner: map.combiner(),
        })
    }

    /// MPI_Type_get_contents(_c). MPI_ERR_TYPE for predefined types (combiner NAMED), for
    /// which the standard makes the call erroneous. Derived children come back as new,
    /// uncommitted handles sharing the child's type map; if registering one fails, those
    /// already made are freed.
    pub fn type_contents(&self, datatype: Datatype) -> Result<TypeContents> {
        let (map, dups) = self.type_layout_dups(datatype, false)?;
        if dups > 0 {
            // A duplicate: the datatype it duplicates, one level of MPI_Type_dup less.
            let child = match map.predefined_index() {
                Some(index) if dups == 1 => Datatype(super::predefined_id(index)),
                _ => self.type_register_dups(map, dups - 1)?,
            };
            return Ok(TypeContents {
                integers: Vec::new(),
                addresses: Vec::new(),
                large: Vec::new(),
                datatypes: vec![child],
            });
        }
        if map.combiner() == Combiner::Named {
            return Err(Error::InvalidType("a predefined datatype has no contents"));
        }
        let c = map.contents();
        let mut datatypes = Vec::with_capacity(c.types.len());
        for child in &c.types {
            let handle = match child.predefined_index() {
                Some(index) => Datatype(super::predefined_id(index)),
                None => match self.type_register(child.clone(), false) {
                    Ok(handle) => handle,
                    Err(error) => {
                        for made in datatypes {
                            if Universe::predefined_datatype_handle(made).is_none() {
                                let _ = self.type_free(made);
                            }
                        }
                        return Err(error);
                    }
                },
            };
            datatypes.push(handle);
        }
        Ok(TypeContents {
            integers: c.integers.clone(),
            addresses: c.addresses.clone(),
            large: c.large.clone(),
            datatypes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lock::ThreadLevel;

    const INT: usize = 0x209;
    const DOUBLE: usize = 0x214;

    fn predefined(handle: usize) -> Datatype {
        Universe::predefined_datatype(handle).unwrap()
    }

    #[test]
    fn envelope_and_contents() -> Result<()> {
        let u = Universe::new(ThreadLevel::Single);
        let int = predefined(INT);
        let e = u.type_envelope(int)?;
        assert_eq!(
            (e.integers, e.addresses, e.large, e.datatypes),
            (0, 0, 0, 0)
        );
        assert_eq!(e.combiner, Combiner::Named);
        assert_eq!(
            u.type_contents(int).unwrap_err().class(),
            crate::ErrorClass::Type
        );
        let v = u.type_vector(3, 2, 5, int, false)?;
        let e = u.type_envelope(v)?;
        assert_eq!(
            (e.integers, e.addresses, e.large, e.datatypes),
            (3, 0, 0, 1)
        );
        assert_eq!(e.combiner, Combiner::Vector);
        let c = u.type_contents(v)?;
        assert_eq!(c.integers, vec![3, 2, 5]);
        // A predefined child comes back as itself.
        assert_eq!(c.datatypes, vec![int]);
        // A derived child comes back as a new handle of the same layout, to be freed.
        let s = u.type_struct(&[1, 2], &[0, 8], &[v, predefined(DOUBLE)], true)?;
        let e = u.type_envelope(s)?;
        assert_eq!(
            (e.integers, e.addresses, e.large, e.datatypes),
            (0, 0, 5, 2)
        );
        let c = u.type_contents(s)?;
        assert_eq!(c.large, vec![2, 1, 2, 0, 8]);
        assert_ne!(c.datatypes[0], v);
        assert_eq!(c.datatypes[1], predefined(DOUBLE));
        assert_eq!(u.type_extent(c.datatypes[0])?, u.type_extent(v)?);
        assert_eq!(u.type_envelope(c.datatypes[0])?.combiner, Combiner::Vector);
        u.type_free(c.datatypes[0])?;
        // Dup: combiner DUP, the old type as its argument, same layout.
        let d = u.type_dup(v)?;
        assert_eq!(u.type_envelope(d)?.combiner, Combiner::Dup);
        assert_eq!(u.type_extent(d)?, (0, 4 * (2 * 5 + 2)));
        u.type_free(d)?;
        u.type_free(s)?;
        u.type_free(v)?;
        Ok(())
    }

    #[test]
    fn duplicates_keep_their_envelope_and_contents() -> Result<()> {
        let u = Universe::new(ThreadLevel::Single);
        let int = predefined(INT);
        let dup_envelope = |t| -> Result<_> {
            let e = u.type_envelope(t)?;
            Ok((e.integers, e.addresses, e.large, e.datatypes, e.combiner))
        };
        let dup = (0, 0, 0, 1, Combiner::Dup);
        // A duplicate of a predefined type names it as itself, and is derived: no predefined
        // op on the fast path.
        let d = u.type_dup(int)?;
        assert_eq!(dup_envelope(d)?, dup);
        assert_eq!(u.type_contents(d)?.datatypes, vec![int]);
        assert_eq!(u.type_size(d)?, 4);
        let fast = |t| {
            u.collective_fast(super::super::Comm::WORLD, Some(t))
                .flatten()
                .map(|f| (f.size, f.ops))
        };
        assert_eq!(fast(d), Some((4, 0)));
        assert!(fast(int).unwrap().1 != 0);
        // A duplicate of a duplicate of a derived type: each level's contents is a new
        // uncommitted handle of the level below.
        let v = u.type_vector(2, 1, 2, int, false)?;
        let d1 = u.type_dup(v)?;
        let d2 = u.type_dup(d1)?;
        u.type_commit(d2)?;
        assert_eq!(u.type_extent(d2)?, u.type_extent(v)?);
        let c2 = u.type_contents(d2)?;
        assert!(c2.integers.is_empty() && c2.addresses.is_empty() && c2.large.is_empty());
        let [l1] = c2.datatypes[..] else { panic!() };
        assert!(l1 != d1 && l1 != v);
        assert_eq!(dup_envelope(l1)?, dup);
        assert_eq!(u.type_committed_map(l1).unwrap_err(), Error::NotCommitted);
        let [l0] = u.type_contents(l1)?.datatypes[..] else {
            panic!()
        };
        assert_eq!(u.type_envelope(l0)?.combiner, Combiner::Vector);
        assert_eq!(u.type_contents(l0)?.integers, vec![2, 1, 2]);
        for t in [l0, l1] {
            u.type_free(t)?;
        }
        // The public type map of a duplicate is the chain of DUP maps.
        let map = u.type_committed_map(d2)?;
        assert_eq!(map.combiner(), Combiner::Dup);
        assert_eq!(map.contents().types[0].combiner(), Combiner::Dup);
        assert_eq!(
            map.contents().types[0].contents().types[0].combiner(),
            Combiner::Vector
        );
        assert_eq!(map.extent(), u.type_extent(v)?.1);
        // A type built from a duplicate has the duplicate as its child.
        let c = u.type_contiguous_c(3, d1, false)?;
        let [child] = u.type_contents(c)?.datatypes[..] else {
            panic!()
        };
        assert_eq!(dup_envelope(child)?, dup);
        let [below] = u.type_contents(child)?.datatypes[..] else {
            panic!()
        };
        assert_eq!(u.type_envelope(below)?.combiner, Combiner::Vector);
        // The original may go first.
        u.type_free(v)?;
        u.type_free(d1)?;
        assert_eq!(u.type_extent(d2)?, (0, 12));
        for t in [below, child, c, d2, d] {
            u.type_free(t)?;
        }
        Ok(())
    }

    #[test]
    fn children_outlive_their_handles() -> Result<()> {
        let u = Universe::new(ThreadLevel::Single);
        let int = predefined(INT);
        let v = u.type_vector(2, 1, 2, int, false)?;
        let c = u.type_contiguous_c(2, v, true)?;
        u.type_free(v)?;
        u.type_commit(c)?;
        let map = u.type_committed_map(c)?;
        assert_eq!((map.size(), map.extent(), map.true_extent()), (16, 24, 24));
        let src: Vec<u8> = (0..24).collect();
        let mut out = [0u8; 16];
        typemap::pack(&map, 1, &src, 0, &mut out, &mut 0)?;
        assert_eq!(
            out,
            [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23]
        );
        u.type_free(c)?;
        Ok(())
    }

    #[test]
    fn match_size_and_f90_types() -> Result<()> {
        let u = Universe::new(ThreadLevel::Single);
        let real8 = Universe::type_match_size(TypeClass::Real, 8)?;
        assert_eq!(
            Universe::predefined_datatype_handle(real8).unwrap().1,
            "MPI_REAL8"
        );
        let c16 = Universe::type_match_size(TypeClass::Complex, 16)?;
        assert_eq!(u.type_size(c16)?, 16);
        assert_eq!(
            Universe::type_match_size(TypeClass::Integer, 3)
                .unwrap_err()
                .class(),
            crate::ErrorClass::Arg
        );
        let i = u.type_f90_integer(5)?;
        assert_eq!(u.type_size(i)?, 4);
        let e = u.type_envelope(i)?;
        assert_eq!(
            (e.integers, e.datatypes, e.combiner),
            (1, 0, Combiner::F90Integer)
        );
        assert_eq!(u.type_contents(i)?.integers, vec![5]);
        assert_eq!(u.type_free(i).unwrap_err().class(), crate::ErrorClass::Type);
        assert_eq!(u.type_committed_map(i)?.size(), 4);
        let r = u.type_f90_real(Some(10), None, (10, -32766), false)?;
        assert_eq!(u.type_size(r)?, 8);
        assert_eq!(u.type_contents(r)?.integers, vec![10, -32766]);
        let c = u.type_f90_real(None, Some(400), (-32766, 400), true)?;
        assert_eq!(u.type_size(c)?, 32);
        assert_eq!(u.type_envelope(c)?.combiner, Combiner::F90Complex);
        assert!(u.type_f90_real(Some(40), None, (40, 0), false).is_err());
        assert!(u.type_f90_integer(39).is_err());
        Ok(())
    }

    #[test]
    fn errors_create_nothing() -> Result<()> {
        let u = Universe::new(ThreadLevel::Single);
        let int = predefined(INT);
        assert_eq!(
            u.type_vector(-1, 1, 1, int, false),
            Err(Error::InvalidCount)
        );
        assert_eq!(
            u.type_hindexed(&[1, 1], &[0], int, false)
                .unwrap_err()
                .class(),
            crate::ErrorClass::Arg
        );
        let t = u.type_contiguous_c(2, int, false)?;
        // Data movement needs a committed type.
        assert_eq!(
            u.type_committed_map(t).unwrap_err().class(),
            crate::ErrorClass::Type
        );
        u.type_commit(t)?;
        assert_eq!(u.type_committed_map(t)?.size(), 8);
        u.type_free(t)?;
        assert!(u.type_vector(1, 1, 1, t, false).is_err());
        Ok(())
    }
}
