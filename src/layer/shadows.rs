//! Which foreign object (src/engine/foreign.rs) holds the attributes of which object of the
//! real MPI. An object of the real MPI gets one at its first attribute; until then it costs
//! nothing. Both MPIs give a freed handle to their next new object at once, so every
//! routine that frees an object drops its entry (src/layer/c.rs).

use std::collections::HashMap;
use std::sync::atomic::{fence, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::engine::{AnyObject, Id, Object, ObjectKind, Result, Universe};

/// A hasher for the maps' small integer keys (a handle's bits, a kind, a table index):
/// one multiply per word instead of SipHash, which defends against keys an attacker picks,
/// not a concern for handles the MPI made.
#[derive(Default)]
struct Words(u64);

impl std::hash::Hasher for Words {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.write_u64(u64::from(*byte));
        }
    }
    fn write_u8(&mut self, word: u8) {
        self.write_u64(u64::from(word));
    }
    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Map<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Words>>;

/// Both directions, under one lock that is never held while the engine runs a callback.
#[derive(Default)]
struct Maps {
    /// (kind, real handle's key) -> foreign object.
    foreign: Map<(u8, usize), Id>,
    /// (kind, foreign object) -> real handle's key, for the handles callbacks receive.
    real: Map<(u8, Id), usize>,
    /// Per kind, a foreign object that never has attributes: gets and deletes on a real
    /// object without a foreign one look there (and check their keyval).
    empty: [Option<Id>; 3],
}

static MAPS: Mutex<Option<Maps>> = Mutex::new(None);

fn maps() -> MutexGuard<'static, Option<Maps>> {
    // A panic while the lock was held left the maps as they were (each change is one insert
    // or remove): go on with them.
    MAPS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn slot(kind: ObjectKind) -> u8 {
    match kind {
        ObjectKind::Comm => 0,
        ObjectKind::Datatype => 1,
        ObjectKind::Win => 2,
    }
}

/// Recent lookups, per kind, for any thread without the lock: a direct-mapped table of
/// entries (real handle's key, foreign object), each behind a sequence number that is odd
/// while it is written (a seqlock). Entries are written only with the maps' lock held, so
/// writers never meet; a reader that sees the sequence move, or odd, looks in the maps.
struct Recent {
    sequence: AtomicU32,
    key: AtomicUsize,
    /// The object's identity with [`FILLED`] set; 0 when empty.
    object: AtomicU64,
}

const RECENT: usize = 256;
/// Marks a filled entry (an identity's generation stays below 2^28, its bit 63 is free).
const FILLED: u64 = 1 << 63;

static RECENTS: [[Recent; RECENT]; 3] = [const {
    [const {
        Recent {
            sequence: AtomicU32::new(0),
            key: AtomicUsize::new(0),
            object: AtomicU64::new(0),
        }
    }; RECENT]
}; 3];

/// The entry of `key`: its bits multiplied and the top 8 kept, so that MPICH's consecutive
/// integers and Open MPI's aligned pointers both spread.
#[inline(always)]
fn recent(kind: u8, key: usize) -> &'static Recent {
    let spread = (key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56;
    &RECENTS[usize::from(kind) % 3][spread as usize % RECENT]
}

fn packed(id: Id) -> u64 {
    FILLED | (u64::from(id.generation()) << 32) | u64::from(id.index())
}

/// Writes `key`'s entry (with the maps' lock held: one writer at a time): `id`, or empty.
fn remember(kind: u8, key: usize, id: Option<Id>) {
    let entry = recent(kind, key);
    let sequence = entry.sequence.load(Ordering::Relaxed);
    entry
        .sequence
        .store(sequence.wrapping_add(1), Ordering::Relaxed);
    fence(Ordering::Release);
    entry.key.store(key, Ordering::Relaxed);
    entry.object.store(id.map_or(0, packed), Ordering::Relaxed);
    entry
        .sequence
        .store(sequence.wrapping_add(2), Ordering::Release);
}

/// The foreign object of the real object `key` if a recent lookup found it, without the
/// lock: the layer's fast paths (src/layer/c.rs).
#[inline(always)]
pub(crate) fn recently_found<O: Object>(key: usize) -> Option<O> {
    let entry = recent(slot(O::KIND), key);
    let before = entry.sequence.load(Ordering::Acquire);
    let (found, object) = (
        entry.key.load(Ordering::Relaxed),
        entry.object.load(Ordering::Relaxed),
    );
    fence(Ordering::Acquire);
    let after = entry.sequence.load(Ordering::Relaxed);
    if before != after || before & 1 != 0 || found != key || object & FILLED == 0 {
        return None;
    }
    let id = Id::from_parts(
        object as u32,
        (object >> 32) as u32 & !(FILLED >> 32) as u32,
    );
    Some(O::from_id(id))
}

/// The foreign object of the real object `key`, if it has one.
pub(crate) fn find<O: Object>(key: usize) -> Option<O> {
    if let Some(object) = recently_found::<O>(key) {
        return Some(object);
    }
    let kind = slot(O::KIND);
    let guard = maps();
    let id = guard
        .as_ref()
        .and_then(|maps| maps.foreign.get(&(kind, key)).copied());
    if id.is_some() {
        remember(kind, key, id);
    }
    id.map(O::from_id)
}

/// The foreign object of the real object `key`, made if it has none.
pub(crate) fn find_or_make<O: Object>(universe: &Universe, key: usize) -> Result<O> {
    if let Some(object) = find::<O>(key) {
        return Ok(object);
    }
    let object: O = universe.foreign()?;
    bind(universe, key, object);
    Ok(object)
}

/// Records that `object` holds the attributes of the real object `key`. A foreign object
/// still recorded for `key` belonged to an object the real MPI freed without this layer
/// seeing it: its attributes are deleted now, late rather than never.
pub(crate) fn bind<O: Object>(universe: &Universe, key: usize, object: O) {
    // The old one keeps its entries while its delete callbacks run: they get its handle.
    if let Some(old) = find::<O>(key) {
        let _ = universe.foreign_free(old);
        if let Some(maps) = maps().as_mut() {
            maps.real.remove(&(slot(O::KIND), old.id()));
        }
    }
    let mut guard = maps();
    let maps = guard.get_or_insert_with(Maps::default);
    maps.foreign.insert((slot(O::KIND), key), object.id());
    maps.real.insert((slot(O::KIND), object.id()), key);
    remember(slot(O::KIND), key, Some(object.id()));
}

/// Forgets the foreign object of the real object `key` (which the engine has freed).
pub(crate) fn forget<O: Object>(key: usize) {
    if let Some(maps) = maps().as_mut() {
        if let Some(id) = maps.foreign.remove(&(slot(O::KIND), key)) {
            maps.real.remove(&(slot(O::KIND), id));
        }
        remember(slot(O::KIND), key, None);
    }
}

/// The real handles' keys of every foreign object of `O`'s kind, in increasing order.
pub(crate) fn keys<O: Object>() -> Vec<usize> {
    let mut keys: Vec<usize> = maps().as_ref().map_or_else(Vec::new, |maps| {
        maps.foreign
            .keys()
            .filter(|(kind, _)| *kind == slot(O::KIND))
            .map(|(_, key)| *key)
            .collect()
    });
    keys.sort_unstable();
    keys
}

/// The kind's foreign object without attributes.
pub(crate) fn empty<O: Object>(universe: &Universe) -> Result<O> {
    if let Some(id) = maps()
        .as_ref()
        .and_then(|maps| maps.empty[slot(O::KIND) as usize])
    {
        return Ok(O::from_id(id));
    }
    let object: O = universe.foreign()?;
    let mut guard = maps();
    let maps = guard.get_or_insert_with(Maps::default);
    // Another thread may have made one meanwhile: the first stays.
    let id = *maps.empty[slot(O::KIND) as usize].get_or_insert(object.id());
    Ok(O::from_id(id))
}

/// The real handle's key of a foreign object, for a callback's first argument.
pub(crate) fn real_key(object: AnyObject) -> Option<usize> {
    let key = (slot(object.kind()), object.id());
    maps().as_ref()?.real.get(&key).copied()
}
