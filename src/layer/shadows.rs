//! Which foreign object (src/engine/foreign.rs) holds the attributes of which object of the
//! real MPI. An object of the real MPI gets one at its first attribute; until then it costs
//! nothing. Both MPIs give a freed handle to their next new object at once, so every
//! routine that frees an object drops its entry (src/layer/c.rs).

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// Advanced, under the maps' lock, at every change of them: a lookup a thread remembers
/// holds while this is unchanged.
static VERSION: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The thread's last lookup: (version, kind, key, its foreign object). A program mostly
    /// works on one object at a time; this spares it the lock and the hash.
    static LAST: Cell<(u64, u8, usize, Option<Id>)> = const { Cell::new((0, 0, 0, None)) };
}

/// Notes a change of the maps (called with their lock held).
fn changed() {
    VERSION.fetch_add(1, Ordering::Release);
}

/// The foreign object of the real object `key`, if it has one.
pub(crate) fn find<O: Object>(key: usize) -> Option<O> {
    let version = VERSION.load(Ordering::Acquire);
    let kind = slot(O::KIND);
    let remembered = LAST.with(|last| {
        let (v, k, remembered_key, id) = last.get();
        (v == version && k == kind && remembered_key == key).then_some(id)
    });
    if let Some(id) = remembered {
        return id.map(O::from_id);
    }
    let id = maps()
        .as_ref()
        .and_then(|maps| maps.foreign.get(&(kind, key)).copied());
    // Remembered with the version read before the lookup: a change meanwhile makes the next
    // call look again.
    LAST.with(|last| last.set((version, kind, key, id)));
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
            changed();
        }
    }
    let mut guard = maps();
    let maps = guard.get_or_insert_with(Maps::default);
    maps.foreign.insert((slot(O::KIND), key), object.id());
    maps.real.insert((slot(O::KIND), object.id()), key);
    changed();
}

/// Forgets the foreign object of the real object `key` (which the engine has freed).
pub(crate) fn forget<O: Object>(key: usize) {
    if let Some(maps) = maps().as_mut() {
        if let Some(id) = maps.foreign.remove(&(slot(O::KIND), key)) {
            maps.real.remove(&(slot(O::KIND), id));
        }
        changed();
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
