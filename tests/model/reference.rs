//! The reference model: attributes.md §3-5 and docs/semantics.md as a small interpreter over plain
//! vectors, written from the text, not from the engine. It runs an operation to the end,
//! callbacks included (their behaviour is data: [`Behavior`]), and records what a program
//! would observe, in order, as a trace of [`Event`]s; the drivers replay the same operation
//! against the library and compare.
//!
//! Objects are kept in creation order in `objects`; `listed` holds those a program has a
//! handle for (a duplicate under construction has none yet). Keyvals are listed from
//! creation on, with the predefined keyvals and two numbers that never name a keyval first.

use std::mem::size_of;

use super::ops::{
    Behavior, CopyB, DeleteB, Kind, Lang, Op, Produce, Reenter, Target, CODES, WORDS,
};
use mpiattr::abi;

pub type KvId = usize;
pub type ObjId = usize;

/// Bytes of MPI_Fint (the C view of a Fortran INTEGER value points at one).
pub const FINT_BYTES: usize = size_of::<mpiattr::Fint>();

/// How many re-entering callbacks one operation of a program may run (nested ones included):
/// callbacks that re-enter forever are the program's bug, not the library's.
pub const REENTRY_BUDGET: u32 = 3;

/// Callbacks duplicate objects only while fewer are alive.
pub const MAX_LIVING: usize = 48;

pub const ERR_COMM: i32 = abi::MPI_ERR_COMM as i32;
pub const ERR_TYPE: i32 = abi::MPI_ERR_TYPE as i32;
pub const ERR_WIN: i32 = abi::MPI_ERR_WIN as i32;
pub const ERR_KEYVAL: i32 = abi::MPI_ERR_KEYVAL as i32;
pub const ERR_OTHER: i32 = abi::MPI_ERR_OTHER as i32;

pub fn kind_class(kind: Kind) -> i32 {
    match kind {
        Kind::Comm => ERR_COMM,
        Kind::Type => ERR_TYPE,
        Kind::Win => ERR_WIN,
    }
}

/// The class of the error a callback's code makes the call fail with (attributes.md §5).
pub fn callback_class(code: i32) -> i32 {
    if (1..=abi::MPI_ERR_ABI as i32).contains(&code) {
        code
    } else {
        ERR_OTHER
    }
}

/// The default INTEGER a word reads as: its low bits, sign-extended.
#[allow(clippy::unnecessary_cast)] // Fint is i64 with 8-byte INTEGERs
pub fn fint(word: i64) -> i64 {
    word as mpiattr::Fint as i64
}

/// What a call in `lang` stores when it passes `word` (MPI_ATTR_PUT passes an INTEGER).
pub fn stored(lang: Lang, word: i64) -> i64 {
    match lang {
        Lang::FInt => fint(word),
        _ => word,
    }
}

/// Names the storage a C reader of a Fortran value gets a pointer to: one per attribute
/// value (a new one when the value is replaced), or per predefined attribute of an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellKey {
    pub obj: ObjId,
    /// The keyval's id, or minus the predefined keyval's number.
    pub kv: i64,
    pub epoch: u64,
}

/// A value as a reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    Plain(i64),
    /// A pointer to `width` bytes holding `content`, which stays the same pointer for `key`.
    Cell {
        width: usize,
        content: i64,
        key: CellKey,
    },
}

/// attributes.md §3's table.
pub fn view(tag: Lang, word: i64, reader: Lang, key: CellKey) -> Seen {
    match (tag, reader) {
        (_, Lang::FInt) => Seen::Plain(fint(word)),
        (Lang::C, _) | (_, Lang::FAddr) => Seen::Plain(word),
        (Lang::FAddr, Lang::C) => Seen::Cell {
            width: 8,
            content: word,
            key,
        },
        (Lang::FInt, Lang::C) => Seen::Cell {
            width: FINT_BYTES,
            content: word,
            key,
        },
    }
}

/// An object as a callback's argument names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    Listed(usize),
    /// An object the program has no handle for: a duplicate being rolled back.
    Fresh,
}

/// The object an act is on: a listed one, or the one the running callback was called for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    Listed(usize),
    Callback,
}

/// An operation with everything resolved: what a driver performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    CreateKeyval {
        kind: Kind,
        conv: Lang,
        copy: CopyB,
        delete: DeleteB,
        alt: bool,
    },
    /// Through the free call of `kind` (the keyval's own kind when it has one).
    FreeKeyval {
        kv: KvId,
        kind: Kind,
        alt: bool,
    },
    Set {
        at: At,
        kv: KvId,
        lang: Lang,
        word: i64,
        alt: bool,
    },
    Get {
        at: At,
        kv: KvId,
        lang: Lang,
        alt: bool,
    },
    Delete {
        at: At,
        kv: KvId,
        alt: bool,
    },
    Dup {
        at: At,
        alt: u8,
    },
    Free {
        at: At,
    },
    Create {
        kind: Kind,
        variant: u8,
    },
    Finalize,
    /// Nothing (an operation the threads test leaves out on shared objects).
    Skip,
}

/// What a copy callback hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Produced {
    /// Exactly the value (for a C callback, the pointer) it was shown.
    Shown,
    Word(i64),
    /// flag = false.
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    Copy(Produced),
    Delete,
    Fail(i32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// The error class.
    Err(i32),
    Value(Option<Seen>),
    /// A new keyval or listed object, with its id or position.
    New(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A callback is called.
    Callback {
        copy: bool,
        kv: KvId,
        obj: Name,
        seen: Seen,
    },
    /// The running callback performs an act...
    Act(Act),
    /// ...which ends so.
    Done(Outcome),
    /// The running callback returns.
    Return(Ret),
}

#[derive(Clone, Debug)]
pub struct User {
    pub kind: Kind,
    pub conv: Lang,
    pub copy: CopyB,
    pub delete: DeleteB,
    pub behavior: Behavior,
    pub freed: bool,
    /// Calls so far of its copy and delete callbacks.
    copies: u32,
    deletes: u32,
    /// Duplications under way that are copying its values.
    pins: u32,
    /// Freed and unused since the end of an operation: gone for good (a cache).
    gone: bool,
}

#[derive(Clone, Debug)]
pub enum Keyval {
    /// MPI_TAG_UB ... MPI_WIN_MODEL.
    Predefined {
        number: i32,
        kind: Kind,
    },
    /// MPI_KEYVAL_INVALID.
    Invalid,
    /// A number no keyval ever has.
    Unknown,
    User(User),
}

#[derive(Clone, Debug)]
pub struct Attr {
    pub kv: KvId,
    pub tag: Lang,
    pub word: i64,
    /// Its delete callback is running.
    pub deleting: bool,
    pub epoch: u64,
}

#[derive(Clone, Debug)]
pub struct Obj {
    pub kind: Kind,
    pub predefined: bool,
    pub alive: bool,
    /// Shared between the threads of the threads test.
    pub shared: bool,
    freeing: bool,
    /// Oldest first.
    pub attrs: Vec<Attr>,
    /// Predefined attributes: (keyval number, tag, word).
    pub pre: Vec<(i32, Lang, i64)>,
}

impl Obj {
    fn new(kind: Kind) -> Obj {
        Obj {
            kind,
            predefined: false,
            alive: true,
            shared: false,
            freeing: false,
            attrs: Vec::new(),
            pre: Vec::new(),
        }
    }
}

/// The predefined keyvals, their kinds, and the tags and words of MPI_COMM_WORLD's values.
pub const COMM_PREDEFINED: [(u32, i64); 7] = [
    (abi::MPI_TAG_UB, 2_147_483_647),
    (abi::MPI_HOST, abi::MPI_PROC_NULL as i64),
    (abi::MPI_IO, 0),
    (abi::MPI_WTIME_IS_GLOBAL, 1),
    (abi::MPI_UNIVERSE_SIZE, 1),
    (abi::MPI_APPNUM, 0),
    (abi::MPI_LASTUSEDCODE, abi::MPI_ERR_LASTCODE as i64),
];
pub const WIN_PREDEFINED: [u32; 5] = [
    abi::MPI_WIN_BASE,
    abi::MPI_WIN_SIZE,
    abi::MPI_WIN_DISP_UNIT,
    abi::MPI_WIN_CREATE_FLAVOR,
    abi::MPI_WIN_MODEL,
];
/// A number that never names a keyval.
pub const UNKNOWN_KEYVAL: i32 = 0x7fff_fff0;

/// Where the predefined objects are listed: MPI_COMM_WORLD, MPI_COMM_SELF, MPI_INT,
/// MPI_DOUBLE (the datatypes in the order of their handles).
pub const WORLD: usize = 0;
pub const SELF: usize = 1;
pub const INT: usize = 2;
pub const DOUBLE: usize = 3;

/// A window the model creates: base, size, displacement unit, flavor. Bases are odd: never
/// dereferenced (no one-sided communication here), and unlike any pointer to storage.
pub fn window_params(variant: u8) -> (i64, i64, i64, bool) {
    let dynamic = variant % 4 == 3;
    if dynamic {
        return (0, 0, 1, true);
    }
    let base = 0x10_0001 + 0x1000 * i64::from(variant);
    (
        base,
        i64::from(variant) * 8,
        i64::from(variant % 3) + 1,
        false,
    )
}

#[derive(Clone, Debug)]
pub struct Model {
    pub keyvals: Vec<Keyval>,
    pub objects: Vec<Obj>,
    pub listed: Vec<ObjId>,
    /// The objects alive (only they hold attributes).
    living: Vec<ObjId>,
    /// Where each object is listed, if it is.
    pos_of: Vec<Option<usize>>,
    /// The user keyvals not known to be gone.
    present: Vec<KvId>,
    /// Per keyval: the values holding it (what `users` would count by looking at every
    /// value of every object; kept as values come and go, for speed).
    holders: Vec<u32>,
    epoch: u64,
    budget: u32,
    pub finalized: bool,
    /// After MPI_Finalize every call fails with MPI_ERR_OTHER (C and Fortran); through the
    /// Rust API with the class of the object or MPI_ERR_KEYVAL.
    pub c_api: bool,
}

impl Model {
    pub fn new(c_api: bool) -> Model {
        let mut keyvals = Vec::new();
        for (number, _) in COMM_PREDEFINED {
            keyvals.push(Keyval::Predefined {
                number: number as i32,
                kind: Kind::Comm,
            });
        }
        for number in WIN_PREDEFINED {
            keyvals.push(Keyval::Predefined {
                number: number as i32,
                kind: Kind::Win,
            });
        }
        keyvals.push(Keyval::Invalid);
        keyvals.push(Keyval::Unknown);
        let mut world = Obj::new(Kind::Comm);
        world.predefined = true;
        world.pre = COMM_PREDEFINED
            .iter()
            .map(|&(n, w)| (n as i32, Lang::FInt, w))
            .collect();
        let mut selfc = Obj::new(Kind::Comm);
        selfc.predefined = true;
        let mut int = Obj::new(Kind::Type);
        int.predefined = true;
        let double = int.clone();
        Model {
            holders: vec![0; keyvals.len()],
            keyvals,
            objects: vec![world, selfc, int, double],
            listed: vec![WORLD, SELF, INT, DOUBLE],
            living: vec![WORLD, SELF, INT, DOUBLE],
            pos_of: vec![Some(WORLD), Some(SELF), Some(INT), Some(DOUBLE)],
            present: Vec::new(),
            epoch: 0,
            budget: 0,
            finalized: false,
            c_api,
        }
    }

    /// Lists a communicator made outside the program and shared with other threads (the
    /// threads test); returns its position.
    pub fn add_shared_comm(&mut self) -> usize {
        let Outcome::New(pos) = self.create(Kind::Comm, 0) else {
            unreachable!()
        };
        self.share(&[pos]);
        pos
    }

    /// Marks listed objects as shared (the threads test).
    pub fn share(&mut self, positions: &[usize]) {
        for &p in positions {
            let id = self.listed[p];
            self.objects[id].shared = true;
        }
    }

    // ---- what a program sees -------------------------------------------------------------

    fn user(&self, kv: KvId) -> Option<&User> {
        match &self.keyvals[kv] {
            Keyval::User(u) => Some(u),
            _ => None,
        }
    }

    fn user_mut(&mut self, kv: KvId) -> &mut User {
        match &mut self.keyvals[kv] {
            Keyval::User(u) => u,
            _ => unreachable!("a user keyval"),
        }
    }

    /// Attributes and operations holding a keyval.
    fn users(&self, kv: KvId) -> u32 {
        self.holders[kv] + self.user(kv).map_or(0, |u| u.pins)
    }

    /// A user keyval whose number still names it.
    pub fn is_live(&self, kv: KvId) -> bool {
        !self.finalized
            && self
                .user(kv)
                .is_some_and(|u| !u.freed || (!u.gone && self.users(kv) > 0))
    }

    /// A user keyval that can take new values.
    pub fn is_settable(&self, kv: KvId) -> bool {
        self.is_live(kv) && self.user(kv).is_some_and(|u| !u.freed)
    }

    /// The listed objects alive, by position.
    pub fn live_positions(&self) -> Vec<usize> {
        self.living
            .iter()
            .filter_map(|&id| self.pos_of[id])
            .collect()
    }

    /// The user keyvals alive.
    pub fn live_user_keyvals(&self) -> Vec<KvId> {
        self.present
            .iter()
            .copied()
            .filter(|&k| self.is_live(k))
            .collect()
    }

    pub fn live_objects(&self) -> usize {
        self.live_positions().len()
    }

    pub fn live_keyvals(&self) -> usize {
        self.live_user_keyvals().len()
    }

    /// Live keyvals, predefined ones included (what `Universe::keyval_count` counts).
    pub fn keyval_count(&self) -> usize {
        if self.finalized {
            return 0; // the Rust API's universe holds nothing after finalize
        }
        COMM_PREDEFINED.len() + WIN_PREDEFINED.len() + self.live_keyvals()
    }

    /// Live listed objects of a kind that are not predefined.
    pub fn user_objects(&self, kind: Kind) -> usize {
        self.objects
            .iter()
            .filter(|o| o.alive && !o.predefined && o.kind == kind)
            .count()
    }

    /// How many attributes an object has, predefined ones included.
    pub fn attr_count(&self, pos: usize) -> Option<usize> {
        let o = &self.objects[self.listed[pos]];
        o.alive.then(|| o.attrs.len() + o.pre.len())
    }

    pub fn kind_at(&self, pos: usize) -> Kind {
        self.objects[self.listed[pos]].kind
    }

    pub fn name(&self, obj: ObjId) -> Name {
        match self.pos_of[obj] {
            Some(p) => Name::Listed(p),
            None => Name::Fresh,
        }
    }

    fn key(obj: ObjId, a: &Attr) -> CellKey {
        CellKey {
            obj,
            kv: a.kv as i64,
            epoch: a.epoch,
        }
    }

    fn find(&self, obj: ObjId, kv: KvId) -> Option<&Attr> {
        self.objects[obj].attrs.iter().find(|a| a.kv == kv)
    }

    fn find_mut(&mut self, obj: ObjId, kv: KvId) -> Option<&mut Attr> {
        self.objects[obj].attrs.iter_mut().find(|a| a.kv == kv)
    }

    /// The error of a call on an object that is not (or no longer) there.
    fn dead(&self, kind: Kind) -> Outcome {
        Outcome::Err(if self.c_api && self.finalized {
            ERR_OTHER
        } else {
            kind_class(kind)
        })
    }

    /// Keyval checks shared by get, set, delete and free: `Err(class)` if the number does
    /// not name a keyval of `kind`, or names a predefined one and `user_only`.
    fn check_keyval(&self, kv: KvId, kind: Kind, user_only: bool) -> Result<(), i32> {
        match &self.keyvals[kv] {
            Keyval::Invalid | Keyval::Unknown => Err(ERR_KEYVAL),
            Keyval::Predefined { kind: k, .. } => {
                if *k != kind || user_only {
                    Err(ERR_KEYVAL)
                } else {
                    Ok(())
                }
            }
            Keyval::User(u) => {
                if !self.is_live(kv) || u.kind != kind {
                    Err(ERR_KEYVAL)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// What `*_get_attr` of keyval `kv` in `lang` on object `obj` returns.
    pub fn get(&self, obj: ObjId, kv: KvId, lang: Lang) -> Outcome {
        let o = &self.objects[obj];
        if !o.alive {
            return self.dead(o.kind);
        }
        if let Keyval::Predefined { number, .. } = self.keyvals[kv] {
            if let Some(&(_, tag, word)) = o.pre.iter().find(|p| p.0 == number) {
                let key = CellKey {
                    obj,
                    kv: -i64::from(number),
                    epoch: 0,
                };
                return Outcome::Value(Some(view(tag, word, lang, key)));
            }
        }
        if let Err(class) = self.check_keyval(kv, o.kind, false) {
            return Outcome::Err(class);
        }
        Outcome::Value(
            self.find(obj, kv)
                .map(|a| view(a.tag, a.word, lang, Self::key(obj, a))),
        )
    }

    /// The language a call in `lang` on an object of `kind` really is: MPI_ATTR_PUT and
    /// MPI_ATTR_GET exist for communicators only; elsewhere the address-kind calls serve.
    pub fn effective(kind: Kind, lang: Lang) -> Lang {
        if lang == Lang::FInt && kind != Kind::Comm {
            Lang::FAddr
        } else {
            lang
        }
    }

    // ---- resolving operations -------------------------------------------------------------

    /// An object alive (mostly), or any listed one (stale ones too); windows cannot be
    /// duplicated.
    fn pick_object(&self, p: u8, dupable: bool) -> usize {
        let ok = |pos: &usize| !dupable || self.kind_at(*pos) != Kind::Win;
        let live: Vec<usize> = self.live_positions().into_iter().filter(ok).collect();
        if p < 224 && !live.is_empty() {
            return live[p as usize % live.len()];
        }
        let any = p as usize % self.listed.len();
        if ok(&any) {
            any
        } else {
            WORLD
        }
    }

    /// A keyval alive (mostly), or any number listed (predefined, invalid, gone).
    fn pick_keyval(&self, p: u8) -> KvId {
        let live = self.live_user_keyvals();
        if p < 208 && !live.is_empty() {
            live[p as usize % live.len()]
        } else {
            p as usize % self.keyvals.len()
        }
    }

    /// The act an operation of a program performs now.
    pub fn resolve(&self, op: &Op) -> Act {
        match *op {
            Op::CreateKeyval {
                kind,
                conv,
                copy,
                delete,
                alt,
                ..
            } => Act::CreateKeyval {
                kind: if conv == Lang::FInt { Kind::Comm } else { kind },
                conv,
                copy,
                delete,
                alt,
            },
            Op::FreeKeyval { kv, alt } => {
                let kv = self.pick_keyval(kv);
                Act::FreeKeyval {
                    kv,
                    kind: self.keyval_kind(kv),
                    alt,
                }
            }
            Op::Set {
                obj,
                kv,
                lang,
                word,
                alt,
            } => {
                let pos = self.pick_object(obj, false);
                self.shared_rules(Act::Set {
                    at: At::Listed(pos),
                    kv: self.pick_keyval(kv),
                    lang: Self::effective(self.kind_at(pos), lang),
                    word: WORDS[word as usize % WORDS.len()],
                    alt,
                })
            }
            Op::Get { obj, kv, lang, alt } => {
                let pos = self.pick_object(obj, false);
                Act::Get {
                    at: At::Listed(pos),
                    kv: self.pick_keyval(kv),
                    lang: Self::effective(self.kind_at(pos), lang),
                    alt,
                }
            }
            Op::Delete { obj, kv, alt } => Act::Delete {
                at: At::Listed(self.pick_object(obj, false)),
                kv: self.pick_keyval(kv),
                alt,
            },
            Op::Dup { obj, alt } => Act::Dup {
                at: At::Listed(self.pick_object(obj, true)),
                alt,
            },
            Op::Free { obj } => self.shared_rules(Act::Free {
                at: At::Listed(self.pick_object(obj, false)),
            }),
            Op::Create { kind, variant } => Act::Create { kind, variant },
            Op::Finalize => Act::Finalize,
        }
    }

    /// The threads test shares some objects: on those a thread sets only values that are
    /// not copied (so another thread's duplicate never holds its keyvals), and frees none.
    fn shared_rules(&self, act: Act) -> Act {
        let shared = |at: At| match at {
            At::Listed(pos) => self.objects[self.listed[pos]].shared,
            At::Callback => false,
        };
        match act {
            Act::Set { at, kv, .. }
                if shared(at) && self.user(kv).is_some_and(|u| u.copy != CopyB::Null) =>
            {
                Act::Skip
            }
            Act::Free { at } if shared(at) && !self.objects[self.listed_at(at)].predefined => {
                Act::Skip
            }
            other => other,
        }
    }

    fn listed_at(&self, at: At) -> ObjId {
        match at {
            At::Listed(pos) => self.listed[pos],
            At::Callback => unreachable!("resolved by the caller"),
        }
    }

    // ---- running operations ------------------------------------------------------------------

    /// Runs an operation of a program: the act it performs and the trace a program sees,
    /// ending with the act's outcome.
    pub fn apply(&mut self, op: &Op) -> (Act, Vec<Event>) {
        let act = self.resolve(op);
        let behavior = match *op {
            Op::CreateKeyval { behavior, .. } => Some(behavior),
            _ => None,
        };
        let mut trace = Vec::new();
        self.budget = REENTRY_BUDGET;
        let outcome = self.run(act, None, behavior, &mut trace);
        trace.push(Event::Done(outcome));
        for kv in self.present.clone() {
            let gone = self.finalized
                || matches!(&self.keyvals[kv], Keyval::User(u) if u.freed) && self.users(kv) == 0;
            if gone {
                self.user_mut(kv).gone = true;
                self.present.retain(|&k| k != kv);
            }
        }
        (act, trace)
    }

    fn run(
        &mut self,
        act: Act,
        callback_obj: Option<ObjId>,
        behavior: Option<Behavior>,
        trace: &mut Vec<Event>,
    ) -> Outcome {
        let obj = |at: At| match at {
            At::Listed(pos) => self.listed[pos],
            At::Callback => callback_obj.expect("an act of a callback"),
        };
        if self.finalized && act != Act::Skip {
            // Nothing comes after MPI_Finalize but the calls the threads test makes to the
            // listed objects of other threads... which the generators never produce.
            return match act {
                Act::Set { at, .. } | Act::Get { at, .. } | Act::Delete { at, .. } => {
                    let kind = self.objects[obj(at)].kind;
                    self.dead(kind)
                }
                _ => Outcome::Err(ERR_OTHER),
            };
        }
        match act {
            Act::CreateKeyval {
                kind,
                conv,
                copy,
                delete,
                ..
            } => {
                self.keyvals.push(Keyval::User(User {
                    kind,
                    conv,
                    copy,
                    delete,
                    behavior: behavior.expect("a new keyval's behavior"),
                    freed: false,
                    copies: 0,
                    deletes: 0,
                    pins: 0,
                    gone: false,
                }));
                self.holders.push(0);
                self.present.push(self.keyvals.len() - 1);
                Outcome::New(self.keyvals.len() - 1)
            }
            Act::FreeKeyval { kv, kind, .. } => self.free_keyval(kv, kind),
            Act::Set {
                at, kv, lang, word, ..
            } => self.set(obj(at), kv, lang, word, trace),
            Act::Get { at, kv, lang, .. } => self.get(obj(at), kv, lang),
            Act::Delete { at, kv, .. } => self.delete(obj(at), kv, trace),
            Act::Dup { at, .. } => self.dup(obj(at), trace),
            Act::Free { at } => self.free(obj(at), trace),
            Act::Create { kind, variant } => self.create(kind, variant),
            Act::Finalize => self.finalize(trace),
            Act::Skip => Outcome::Ok,
        }
    }

    /// The kind of a keyval (communicator for the numbers that name none).
    pub fn keyval_kind(&self, kv: KvId) -> Kind {
        match &self.keyvals[kv] {
            Keyval::User(u) => u.kind,
            Keyval::Predefined { kind, .. } => *kind,
            Keyval::Invalid | Keyval::Unknown => Kind::Comm,
        }
    }

    fn free_keyval(&mut self, kv: KvId, kind: Kind) -> Outcome {
        if let Err(class) = self.check_keyval(kv, kind, true) {
            return Outcome::Err(class);
        }
        // Freeing a freed keyval still in use succeeds and does nothing.
        self.user_mut(kv).freed = true;
        Outcome::Ok
    }

    fn next_epoch(&mut self) -> u64 {
        self.epoch += 1;
        self.epoch
    }

    fn attach(&mut self, obj: ObjId, kv: KvId, tag: Lang, word: i64) {
        let epoch = self.next_epoch();
        self.holders[kv] += 1;
        self.objects[obj].attrs.push(Attr {
            kv,
            tag,
            word,
            deleting: false,
            epoch,
        });
    }

    /// A value replaced counts as newly set.
    fn replace(&mut self, obj: ObjId, kv: KvId, tag: Lang, word: i64) {
        self.detach(obj, kv);
        self.attach(obj, kv, tag, word);
    }

    fn detach(&mut self, obj: ObjId, kv: KvId) {
        let attrs = &mut self.objects[obj].attrs;
        if let Some(i) = attrs.iter().position(|a| a.kv == kv) {
            attrs.remove(i);
            self.holders[kv] -= 1;
        }
    }

    fn set(
        &mut self,
        obj: ObjId,
        kv: KvId,
        lang: Lang,
        word: i64,
        trace: &mut Vec<Event>,
    ) -> Outcome {
        let word = stored(lang, word);
        loop {
            let kind = self.objects[obj].kind;
            if !self.objects[obj].alive {
                return self.dead(kind);
            }
            if let Err(class) = self.check_keyval(kv, kind, true) {
                return Outcome::Err(class);
            }
            if !self.is_settable(kv) {
                return Outcome::Err(ERR_KEYVAL);
            }
            let silent = self.user(kv).unwrap().delete == DeleteB::Null;
            match self.find(obj, kv).map(|a| a.deleting) {
                None => {
                    self.attach(obj, kv, lang, word);
                    return Outcome::Ok;
                }
                // No callback to run, or the deletion under way is the old value's one call.
                Some(deleting) if silent || deleting => {
                    self.replace(obj, kv, lang, word);
                    return Outcome::Ok;
                }
                Some(_) => {}
            }
            match self.delete_value(obj, kv, Some((lang, word)), trace) {
                Err(class) => return Outcome::Err(class),
                Ok(Deleted::Replaced) => return Outcome::Ok,
                // Changed while the callback ran: start over with what is there.
                Ok(_) => {}
            }
        }
    }

    fn delete(&mut self, obj: ObjId, kv: KvId, trace: &mut Vec<Event>) -> Outcome {
        let kind = self.objects[obj].kind;
        if !self.objects[obj].alive {
            return self.dead(kind);
        }
        if let Err(class) = self.check_keyval(kv, kind, true) {
            return Outcome::Err(class);
        }
        match self.delete_value(obj, kv, None, trace) {
            Ok(_) => Outcome::Ok,
            Err(class) => Outcome::Err(class),
        }
    }

    /// Deletes a value with its delete callback; on success removes it or puts `replacement`
    /// in its place. A failure keeps it.
    fn delete_value(
        &mut self,
        obj: ObjId,
        kv: KvId,
        replacement: Option<(Lang, i64)>,
        trace: &mut Vec<Event>,
    ) -> Result<Deleted, i32> {
        let Some(a) = self.find(obj, kv).cloned() else {
            return Ok(Deleted::Nothing);
        };
        if a.deleting {
            return Ok(Deleted::Nothing);
        }
        let user = self
            .user(kv)
            .expect("a value's keyval is a user keyval")
            .clone();
        if user.delete == DeleteB::Call {
            self.find_mut(obj, kv).unwrap().deleting = true;
            let seen = view(a.tag, a.word, user.conv, Self::key(obj, &a));
            let result = self.call(false, kv, obj, seen, trace);
            let ours = self.find(obj, kv).is_some_and(|a| a.deleting);
            if let Err(code) = result {
                if ours {
                    self.find_mut(obj, kv).unwrap().deleting = false;
                }
                return Err(callback_class(code));
            }
            if !ours {
                // Replaced inside the callback: not ours to touch.
                return Ok(Deleted::Nothing);
            }
        }
        Ok(match replacement {
            Some((tag, word)) => {
                self.replace(obj, kv, tag, word);
                Deleted::Replaced
            }
            None => {
                self.detach(obj, kv);
                Deleted::Removed
            }
        })
    }

    /// Runs a user callback: it is called, may re-enter, then returns.
    fn call(
        &mut self,
        copy: bool,
        kv: KvId,
        obj: ObjId,
        seen: Seen,
        trace: &mut Vec<Event>,
    ) -> Result<Produced, i32> {
        trace.push(Event::Callback {
            copy,
            kv,
            obj: self.name(obj),
            seen,
        });
        let user = self.user_mut(kv);
        let (n, period) = if copy {
            user.copies += 1;
            (user.copies, user.behavior.copy_fail)
        } else {
            user.deletes += 1;
            (user.deletes, user.behavior.delete_fail)
        };
        let behavior = user.behavior;
        let conv = user.conv;
        let reenter = if copy {
            behavior.on_copy
        } else {
            behavior.on_delete
        };
        if reenter != Reenter::Nothing && self.budget > 0 {
            self.budget -= 1;
            self.reenter(reenter, kv, obj, trace);
        }
        let ret = if period != 0 && n % u32::from(period) == 0 {
            Ret::Fail(CODES[behavior.code as usize % CODES.len()])
        } else if !copy {
            Ret::Delete
        } else {
            let plain = match seen {
                Seen::Plain(w) => Some(w),
                Seen::Cell { .. } => None,
            };
            Ret::Copy(match (behavior.produce, conv) {
                (Produce::NoCopy, _) => Produced::Nothing,
                (Produce::Const(i), _) => Produced::Word(WORDS[i as usize % WORDS.len()]),
                (Produce::Same, Lang::C) | (Produce::Plus2, Lang::C) => Produced::Shown,
                (Produce::Same, _) => Produced::Word(plain.expect("Fortran views are plain")),
                (Produce::Plus2, _) => {
                    Produced::Word(plain.expect("Fortran views are plain").wrapping_add(2))
                }
            })
        };
        trace.push(Event::Return(ret));
        match ret {
            Ret::Fail(code) => Err(code),
            Ret::Copy(p) => Ok(p),
            Ret::Delete => Ok(Produced::Nothing),
        }
    }

    fn reenter(&mut self, reenter: Reenter, own_kv: KvId, obj: ObjId, trace: &mut Vec<Event>) {
        let kv = |t: Target| match t {
            Target::Own => own_kv,
            Target::Pick(p) => self.pick_keyval(p),
        };
        let kind = self.objects[obj].kind;
        let act = match reenter {
            Reenter::Nothing => return,
            Reenter::Get(t, lang) => Act::Get {
                at: At::Callback,
                kv: kv(t),
                lang: Self::effective(kind, lang),
                alt: false,
            },
            Reenter::Set(t, lang, w) => {
                let kv = kv(t);
                let shared = self.objects[obj].shared
                    && self.user(kv).is_some_and(|u| u.copy != CopyB::Null);
                if shared {
                    Act::Skip
                } else {
                    Act::Set {
                        at: At::Callback,
                        kv,
                        lang: Self::effective(kind, lang),
                        word: WORDS[w as usize % WORDS.len()],
                        alt: false,
                    }
                }
            }
            Reenter::Delete(t) => Act::Delete {
                at: At::Callback,
                kv: kv(t),
                alt: false,
            },
            Reenter::FreeKeyval(t) => {
                let kv = kv(t);
                Act::FreeKeyval {
                    kv,
                    kind: self.keyval_kind(kv),
                    alt: false,
                }
            }
            // Programs whose callbacks duplicate objects as fast as they are freed would
            // grow without end: callbacks duplicate only while few objects are alive.
            Reenter::Dup(_) if self.living.len() >= MAX_LIVING => return,
            Reenter::Dup(Target::Own) if kind != Kind::Win => Act::Dup {
                at: At::Callback,
                alt: 0,
            },
            Reenter::Dup(Target::Own) => return,
            Reenter::Dup(Target::Pick(p)) => Act::Dup {
                at: At::Listed(self.pick_object(p, true)),
                alt: 0,
            },
        };
        if act == Act::Skip {
            return;
        }
        trace.push(Event::Act(act));
        let outcome = self.run(act, Some(obj), None, trace);
        trace.push(Event::Done(outcome));
    }

    fn dup(&mut self, source: ObjId, trace: &mut Vec<Event>) -> Outcome {
        let kind = self.objects[source].kind;
        if !self.objects[source].alive {
            return self.dead(kind);
        }
        let mut copy = Obj::new(kind);
        copy.pre = self.objects[source].pre.clone();
        self.objects.push(copy);
        self.pos_of.push(None);
        let target = self.objects.len() - 1;
        self.living.push(target);
        let order: Vec<KvId> = self.objects[source].attrs.iter().map(|a| a.kv).collect();
        for &kv in &order {
            self.user_mut(kv).pins += 1;
        }
        let mut result = Ok(());
        for &kv in &order {
            result = self.copy_one(source, target, kv, trace);
            if result.is_err() {
                break;
            }
        }
        for &kv in &order {
            self.user_mut(kv).pins -= 1;
        }
        if let Err(class) = result {
            // Every copy made is deleted with its delete callback; the object goes anyway.
            if self.objects[target]
                .attrs
                .iter()
                .any(|a| self.has_delete_callback(a.kv))
            {
                let _ = self.delete_all(target, trace);
            }
            self.kill(target);
            return Outcome::Err(class);
        }
        self.listed.push(target);
        self.pos_of[target] = Some(self.listed.len() - 1);
        Outcome::New(self.listed.len() - 1)
    }

    fn kill(&mut self, obj: ObjId) {
        self.objects[obj].alive = false;
        for a in std::mem::take(&mut self.objects[obj].attrs) {
            self.holders[a.kv] -= 1;
        }
        self.living.retain(|&id| id != obj);
    }

    fn has_delete_callback(&self, kv: KvId) -> bool {
        self.user(kv).is_some_and(|u| u.delete == DeleteB::Call)
    }

    fn copy_one(
        &mut self,
        source: ObjId,
        target: ObjId,
        kv: KvId,
        trace: &mut Vec<Event>,
    ) -> Result<(), i32> {
        let Some(a) = self.find(source, kv).cloned() else {
            return Ok(()); // deleted by a callback meanwhile
        };
        let user = self.user(kv).unwrap().clone();
        match user.copy {
            CopyB::Null => Ok(()),
            CopyB::Dup => {
                self.attach(target, kv, a.tag, a.word);
                Ok(())
            }
            CopyB::Call => {
                let seen = view(a.tag, a.word, user.conv, Self::key(source, &a));
                match self
                    .call(true, kv, source, seen, trace)
                    .map_err(callback_class)?
                {
                    Produced::Nothing => {}
                    Produced::Shown if a.tag != Lang::C => {
                        // A C callback handing back the pointer it was shown copies the value.
                        self.attach(target, kv, a.tag, a.word)
                    }
                    Produced::Shown => {
                        let Seen::Plain(w) = seen else { unreachable!() };
                        self.attach(target, kv, Lang::C, w)
                    }
                    Produced::Word(w) => self.attach(target, kv, user.conv, stored(user.conv, w)),
                }
                Ok(())
            }
        }
    }

    fn free(&mut self, obj: ObjId, trace: &mut Vec<Event>) -> Outcome {
        let kind = self.objects[obj].kind;
        if !self.objects[obj].alive || self.objects[obj].predefined || self.objects[obj].freeing {
            return self.dead(kind);
        }
        self.objects[obj].freeing = true;
        let result = self.delete_all(obj, trace);
        self.objects[obj].freeing = false;
        if let Err(class) = result {
            return Outcome::Err(class);
        }
        if !self.objects[obj].attrs.is_empty() {
            return Outcome::Err(kind_class(kind));
        }
        self.kill(obj);
        Outcome::Ok
    }

    /// Deletes every value of an object, newest first, each tried once, until none is left;
    /// values set meanwhile go too. Returns the first failure.
    fn delete_all(&mut self, obj: ObjId, trace: &mut Vec<Event>) -> Result<(), i32> {
        let mut failed: Vec<KvId> = Vec::new();
        let mut first = None;
        loop {
            let pending: Vec<KvId> = self.objects[obj]
                .attrs
                .iter()
                .rev()
                .filter(|a| !a.deleting && !failed.contains(&a.kv))
                .map(|a| a.kv)
                .collect();
            if pending.is_empty() {
                break;
            }
            for kv in pending {
                if let Err(class) = self.delete_value(obj, kv, None, trace) {
                    failed.push(kv);
                    first.get_or_insert(class);
                }
            }
        }
        first.map_or(Ok(()), Err)
    }

    fn create(&mut self, kind: Kind, variant: u8) -> Outcome {
        let mut o = Obj::new(kind);
        if kind == Kind::Win {
            let (base, size, disp, dynamic) = window_params(variant);
            let flavor = if dynamic {
                abi::MPI_WIN_FLAVOR_DYNAMIC
            } else {
                abi::MPI_WIN_FLAVOR_CREATE
            };
            o.pre = vec![
                (abi::MPI_WIN_BASE as i32, Lang::C, base),
                (abi::MPI_WIN_SIZE as i32, Lang::FAddr, size),
                (abi::MPI_WIN_DISP_UNIT as i32, Lang::FInt, disp),
                (abi::MPI_WIN_CREATE_FLAVOR as i32, Lang::FInt, flavor as i64),
                (
                    abi::MPI_WIN_MODEL as i32,
                    Lang::FInt,
                    abi::MPI_WIN_UNIFIED as i64,
                ),
            ];
        }
        self.objects.push(o);
        self.living.push(self.objects.len() - 1);
        self.listed.push(self.objects.len() - 1);
        self.pos_of.push(Some(self.listed.len() - 1));
        Outcome::New(self.listed.len() - 1)
    }

    /// MPI_Finalize: MPI_COMM_SELF's values, then MPI_COMM_WORLD's, then those of the
    /// predefined datatypes, each newest first; then everything goes.
    fn finalize(&mut self, trace: &mut Vec<Event>) -> Outcome {
        let mut first = None;
        for pos in [SELF, WORLD, INT, DOUBLE] {
            let obj = self.listed[pos];
            if let Err(class) = self.delete_all(obj, trace) {
                first.get_or_insert(class);
            }
        }
        for obj in self.living.clone() {
            self.kill(obj);
        }
        self.finalized = true;
        first.map_or(Outcome::Ok, Outcome::Err)
    }
}

enum Deleted {
    Nothing,
    Removed,
    Replaced,
}
