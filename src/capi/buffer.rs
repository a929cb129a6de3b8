//! User memory named by an address, a count and a datatype: the one place where the C shell
//! turns the three into the packed bytes a message or collective carries, and writes packed
//! bytes back, through the datatype engine's type maps (src/engine/typemap.rs).
//!
//! A buffer whose items lie back to back from its address (every predefined datatype, and
//! derived ones such as a contiguous type) is read and written in place with one copy; any
//! other layout is packed and unpacked item by item over the bytes its items span. `MPI_BOTTOM`
//! is address 0: with a datatype of absolute displacements the data lies where they say.

use std::borrow::Cow;
use std::sync::Arc;

use super::handles;
use super::universe;
use crate::abi::{self, MPI_Datatype};
use crate::engine::typemap::{self, TypeMap};
use crate::engine::{Datatype, Error, Layout, Result, Universe, UserBuffer};

/// `count` items of a committed datatype.
pub(crate) struct Data {
    pub(crate) datatype: Datatype,
    pub(crate) count: i64,
    /// Their packed size in bytes.
    pub(crate) bytes: usize,
    pub(crate) map: Arc<TypeMap>,
}

/// Checks a count (an `int` widened, or an `MPI_Count`) and a datatype argument:
/// `MPI_ERR_COUNT` for a negative count, `MPI_ERR_TYPE` for an invalid or uncommitted
/// datatype.
pub(crate) fn describe_large(count: i64, datatype: MPI_Datatype) -> Result<Data> {
    if count < 0 {
        return Err(Error::InvalidCount);
    }
    let (datatype, map) = match Universe::predefined_datatype_map(datatype as usize) {
        // A predefined datatype: its map without a lock.
        Some(map) => (handles::datatype(datatype)?, map.clone()),
        None => {
            let datatype = handles::datatype(datatype)?;
            (datatype, universe()?.type_committed_layout(datatype)?)
        }
    };
    let bytes = packed_bytes(&map, count)?;
    Ok(Data {
        datatype,
        count,
        bytes,
        map,
    })
}

/// The packed size of `count` items: `MPI_ERR_COUNT` if negative or beyond the address space.
fn packed_bytes(map: &TypeMap, count: i64) -> Result<usize> {
    let count = u64::try_from(count).map_err(|_| Error::InvalidCount)?;
    (map.size() as u128 * count as u128)
        .try_into()
        .ok()
        .filter(|&b: &usize| b <= isize::MAX as usize)
        .ok_or(Error::InvalidCount)
}

/// The bytes `[start, start + len)` of the program's memory that some items touch.
#[derive(Clone, Copy)]
pub(crate) struct Span {
    start: usize,
    len: usize,
    /// The buffer address's offset from `start` (negative if the data starts past it).
    origin: isize,
}

impl Span {
    fn overlaps(&self, other: &Span) -> bool {
        self.start < other.start + other.len && other.start < self.start + self.len
    }
}

impl Data {
    /// The same datatype, `count` items of it.
    pub(crate) fn with_count(&self, count: i64) -> Result<Data> {
        let bytes = packed_bytes(&self.map, count)?;
        Ok(Data {
            datatype: self.datatype,
            count,
            bytes,
            map: self.map.clone(),
        })
    }

    /// Whether the data is its `bytes` bytes at the buffer address, so that no layout is
    /// needed to read or write it.
    pub(crate) fn plain(&self) -> bool {
        self.map.true_lb() == 0 && self.map.contiguous_items()
    }

    /// The layout a receive keeps for unpacking at completion; `None` when [`Data::plain`].
    pub(crate) fn layout(&self) -> Option<Layout> {
        (!self.plain()).then(|| Layout(self.map.clone()))
    }

    /// The bytes the items at `address` span; `None` when they hold no data. NULL (or
    /// `MPI_IN_PLACE`) where there is data to move is `MPI_ERR_BUFFER`, naming `what`.
    pub(crate) fn span(&self, address: usize, what: &'static str) -> Result<Option<Span>> {
        let count = self.count as u64;
        span_of(&self.map, count, address, what)
    }

    /// The packed bytes of the items at `address`: the memory itself when plain, else a packed
    /// copy.
    ///
    /// # Safety
    /// The items at `address` are readable memory (the caller's MPI contract).
    pub(crate) unsafe fn read<'a>(
        &self,
        address: usize,
        what: &'static str,
    ) -> Result<Cow<'a, [u8]>> {
        let Some(span) = self.span(address, what)? else {
            return Ok(Cow::Borrowed(&[]));
        };
        // SAFETY: the items' bytes, readable by the caller's contract.
        let memory = unsafe { std::slice::from_raw_parts(span.start as *const u8, span.len) };
        if self.plain() {
            return Ok(Cow::Borrowed(memory));
        }
        let mut packed = vec![0u8; self.bytes];
        typemap::pack(
            &self.map,
            self.count as u64,
            memory,
            span.origin,
            &mut packed,
            &mut 0,
        )?;
        Ok(Cow::Owned(packed))
    }

    /// Checks that the items at `address` can take data: `MPI_ERR_BUFFER` for NULL or
    /// `MPI_IN_PLACE` where data would go.
    pub(crate) fn check_output(&self, address: usize, what: &'static str) -> Result<()> {
        self.span(address, what).map(drop)
    }
}

/// The packed bytes, read now, of a buffer the engine keeps for later (a persistent send's,
/// a persistent collective's send block): what each `MPI_Start` passes to the engine.
///
/// # Safety
/// The buffer's items are readable memory (the program's contract with the call that made
/// the request, which checked them).
pub(crate) unsafe fn read_kept(buffer: &UserBuffer, what: &'static str) -> Result<Vec<u8>> {
    match &buffer.layout {
        None => {
            if buffer.bytes == 0 {
                return Ok(Vec::new());
            }
            if buffer.address == 0 || buffer.address == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize {
                return Err(Error::InvalidBuffer(what));
            }
            // SAFETY: `bytes` contiguous readable bytes at the address (the caller's contract).
            let memory = unsafe {
                std::slice::from_raw_parts(buffer.address as *const u8, buffer.bytes as usize)
            };
            Ok(memory.to_vec())
        }
        Some(Layout(map)) => {
            let data = Data {
                datatype: buffer.datatype,
                count: buffer.count,
                bytes: buffer.bytes as usize,
                map: map.clone(),
            };
            // SAFETY: the items are readable (the caller's contract).
            Ok(unsafe { data.read(buffer.address, what)? }.into_owned())
        }
    }
}

fn span_of(map: &TypeMap, count: u64, address: usize, what: &'static str) -> Result<Option<Span>> {
    let Some((low, high)) = map.span(count) else {
        return Ok(None);
    };
    let start = address as i128 + low;
    let end = address as i128 + high;
    if address == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize
        || start <= 0
        || end > isize::MAX as i128
    {
        return Err(Error::InvalidBuffer(what));
    }
    Ok(Some(Span {
        start: start as usize,
        len: (end - start) as usize,
        origin: -low as isize,
    }))
}

/// Writes packed bytes received into the items of `map` at `address` (whole items first, then
/// part of the last one when the data ends inside it); `layout` `None` means the bytes go to
/// `address` as they are.
///
/// # Safety
/// The items the data reaches at `address` are writable memory that no live reference covers
/// (the caller's MPI contract: the receive buffer the program named).
pub(crate) unsafe fn deliver(
    address: usize,
    layout: Option<&Layout>,
    data: &[u8],
    what: &'static str,
) -> Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    let Some(Layout(map)) = layout else {
        if address == 0 || address == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize {
            return Err(Error::InvalidBuffer(what));
        }
        // SAFETY: the caller's contract; `copy` allows the source to overlap.
        unsafe { std::ptr::copy(data.as_ptr(), address as *mut u8, data.len()) };
        return Ok(());
    };
    let items = (data.len() as u64).div_ceil(map.size().max(1));
    let Some(span) = span_of(map, items, address, what)? else {
        return Ok(());
    };
    // SAFETY: the items' bytes, writable and unaliased by the caller's contract.
    let memory = unsafe { std::slice::from_raw_parts_mut(span.start as *mut u8, span.len) };
    typemap::deliver(data, map, memory, span.origin)
}

/// Copies `send`'s items at `from` into `recv`'s items at `to` (a collective's move to
/// oneself): the packed data of the one written into the other, whatever the two layouts.
/// Overlapping memory is read completely before anything is written.
///
/// # Safety
/// Both buffers are valid for what their counts and datatypes describe (the caller's
/// contract).
pub(crate) unsafe fn copy(
    send: &Data,
    from: usize,
    recv: &Data,
    to: usize,
    what: (&'static str, &'static str),
) -> Result<()> {
    if send.bytes > recv.bytes {
        return Err(Error::Truncated {
            length: send.bytes as u64,
            capacity: recv.bytes as u64,
        });
    }
    let Some(source) = send.span(from, what.0)? else {
        return Ok(());
    };
    recv.check_output(to, what.1)?;
    if from == to && Arc::ptr_eq(&send.map, &recv.map) {
        return Ok(());
    }
    let target = span_of(
        &recv.map,
        (send.bytes as u64).div_ceil(recv.map.size().max(1)),
        to,
        what.1,
    )?;
    if send.plain() && recv.plain() {
        // SAFETY: both valid for `send.bytes` bytes; `copy` allows overlap.
        unsafe { std::ptr::copy(source.start as *const u8, to as *mut u8, send.bytes) };
        return Ok(());
    }
    // SAFETY: the caller's contract.
    let packed = unsafe { send.read(from, what.0)? };
    let packed = match target {
        Some(target) if target.overlaps(&source) => Cow::Owned(packed.into_owned()),
        _ => packed,
    };
    let layout = recv.layout();
    // SAFETY: the caller's contract; the packed data no longer borrows overlapping memory.
    unsafe { deliver(to, layout.as_ref(), &packed, what.1) }
}

/// How MPI_Pack and MPI_Pack_external lay the items out: the bytes as they are in memory, or
/// the big-endian "external32" form (MPI-4.1 §5.2.3).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Representation {
    /// MPI_Pack, MPI_Unpack: memory's bytes (one process: no conversion).
    Native,
    /// MPI_Pack_external, MPI_Unpack_external with "external32".
    External32,
}

impl Data {
    /// The bytes the items take packed in `representation`.
    pub(crate) fn packed_size(&self, representation: Representation) -> Result<u64> {
        match representation {
            Representation::Native => Ok(self.bytes as u64),
            Representation::External32 => typemap::pack_external_size(&self.map, self.count as u64),
        }
    }

    /// Packs the items at `address` into the [`Data::packed_size`] bytes at `out` (a pack
    /// buffer at its position). NULL `out` with data to write is `MPI_ERR_BUFFER`; a buffer
    /// overlapping the items (erroneous) is packed through a copy.
    ///
    /// # Safety
    /// The items at `address` are readable and the packed size's bytes at `out` writable (the
    /// caller's MPI contract).
    pub(crate) unsafe fn pack_into(
        &self,
        address: usize,
        what: (&'static str, &'static str),
        out: usize,
        representation: Representation,
    ) -> Result<()> {
        let len = self.packed_size(representation)? as usize;
        let Some(span) = self.span(address, what.0)? else {
            return Ok(());
        };
        if out == 0 || out == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize {
            return Err(Error::InvalidBuffer(what.1));
        }
        let target = Span {
            start: out,
            len,
            origin: 0,
        };
        // SAFETY: the items' bytes, readable by the caller's contract.
        let memory = unsafe { std::slice::from_raw_parts(span.start as *const u8, span.len) };
        let pack = |into: &mut [u8]| match representation {
            Representation::Native => typemap::pack(
                &self.map,
                self.count as u64,
                memory,
                span.origin,
                into,
                &mut 0,
            ),
            Representation::External32 => typemap::pack_external(
                &self.map,
                self.count as u64,
                memory,
                span.origin,
                into,
                &mut 0,
            ),
        };
        if target.overlaps(&span) {
            let mut staged = vec![0u8; len];
            pack(&mut staged)?;
            // SAFETY: `len` writable bytes at `out` (the caller's contract).
            unsafe { std::ptr::copy(staged.as_ptr(), out as *mut u8, len) };
            return Ok(());
        }
        // SAFETY: `len` writable bytes at `out` (the caller's contract), apart from the items.
        let into = unsafe { std::slice::from_raw_parts_mut(out as *mut u8, len) };
        pack(into)
    }

    /// Unpacks [`Data::packed_size`] bytes at `input` (a packed buffer at its position) into
    /// the items at `address`. NULL `input` with data to read is `MPI_ERR_BUFFER`; a packed
    /// buffer overlapping the items (erroneous) is read through a copy.
    ///
    /// # Safety
    /// The packed size's bytes at `input` are readable and the items at `address` writable
    /// memory that no live reference covers (the caller's MPI contract).
    pub(crate) unsafe fn unpack_from(
        &self,
        input: usize,
        address: usize,
        what: (&'static str, &'static str),
        representation: Representation,
    ) -> Result<()> {
        let len = self.packed_size(representation)? as usize;
        let Some(span) = self.span(address, what.1)? else {
            return Ok(());
        };
        if input == 0 || input == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize {
            return Err(Error::InvalidBuffer(what.0));
        }
        let source = Span {
            start: input,
            len,
            origin: 0,
        };
        let staged;
        let packed: &[u8] = if source.overlaps(&span) {
            // SAFETY: `len` readable bytes at `input` (the caller's contract).
            staged = unsafe { std::slice::from_raw_parts(input as *const u8, len) }.to_vec();
            &staged
        } else {
            // SAFETY: as above; no mutable slice below covers them.
            unsafe { std::slice::from_raw_parts(input as *const u8, len) }
        };
        // SAFETY: the items' bytes, writable and unaliased by the caller's contract.
        let memory = unsafe { std::slice::from_raw_parts_mut(span.start as *mut u8, span.len) };
        let count = self.count as u64;
        match representation {
            Representation::Native => {
                typemap::unpack(packed, &mut 0, &self.map, count, memory, span.origin)
            }
            Representation::External32 => {
                typemap::unpack_external(packed, &mut 0, &self.map, count, memory, span.origin)
            }
        }
    }
}
