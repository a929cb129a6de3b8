//! Replaying the model's trace against the library, through a [`Backend`] (the Rust API, or
//! the exported C and Fortran functions), and comparing everything a program observes: each
//! act's outcome and error class, each callback call (which keyval, which object, the value
//! it is shown), and after every operation the visible state.
//!
//! The model decides what callbacks do; the driver's callbacks do what the trace says at that
//! point (re-enter with the act it names, then return what it says), so any divergence shows
//! as the first event that differs.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Debug;

use super::harness::{Failure, Stats};
use super::ops::{encode, CopyB, DeleteB, Kind, Lang, Op};
use super::reference::{
    At, CellKey, Event, KvId, Model, Name, Outcome, Produced, Ret, Seen, ERR_OTHER, UNKNOWN_KEYVAL,
};

/// What a callback hands back to the library: a copy's value (`None`: no copy) or an error
/// code.
pub type CallbackResult = Result<Option<i64>, i32>;

/// One way into the library. Errors are MPI error classes.
pub trait Backend {
    type Obj: Copy + PartialEq + Debug;

    /// MPI_COMM_WORLD, MPI_COMM_SELF, MPI_INT, MPI_DOUBLE.
    fn predefined(&self) -> [Self::Obj; 4];
    /// Creates a keyval whose callbacks (if any) report to the thread's driver.
    fn create_keyval(
        &self,
        kind: Kind,
        conv: Lang,
        copy: CopyB,
        delete: DeleteB,
        alt: bool,
    ) -> Result<i32, i32>;
    fn free_keyval(&self, kind: Kind, number: i32, alt: bool) -> Result<(), i32>;
    fn set(
        &self,
        obj: Self::Obj,
        kind: Kind,
        number: i32,
        lang: Lang,
        word: i64,
        alt: bool,
    ) -> Result<(), i32>;
    /// The value found, as the raw word the call returned (a C reader's pointer included).
    fn get(
        &self,
        obj: Self::Obj,
        kind: Kind,
        number: i32,
        lang: Lang,
        alt: bool,
    ) -> Result<Option<i64>, i32>;
    fn delete(&self, obj: Self::Obj, kind: Kind, number: i32, alt: bool) -> Result<(), i32>;
    fn dup(&self, obj: Self::Obj, kind: Kind, alt: u8) -> Result<Self::Obj, i32>;
    fn free(&self, obj: Self::Obj, kind: Kind) -> Result<(), i32>;
    fn create(&self, kind: Kind, variant: u8) -> Result<Self::Obj, i32>;
    fn finalize(&self) -> Result<(), i32>;
    /// What the Rust API can count: live keyvals, user objects per kind, and the attributes
    /// of the given objects (`None` for a dead one). `None` where there is no such call.
    fn counts(&self, objects: &[(Self::Obj, Kind)]) -> Option<Counts>;
}

#[derive(Debug, PartialEq, Eq)]
pub struct Counts {
    pub keyvals: usize,
    pub objects: [usize; 3],
    pub attrs: Vec<Option<usize>>,
}

/// A value as the library returned it.
#[derive(Clone, Copy, Debug)]
enum Got {
    Plain(i64),
    Cell { ptr: usize, content: i64 },
}

/// Reads what a C reader's pointer points at, if the model expects a pointer and the word is
/// one to library storage (aligned, far from the small and odd words programs store).
fn observe(raw: i64, expected: Option<&Seen>) -> Got {
    let Some(&Seen::Cell { width, .. }) = expected else {
        return Got::Plain(raw);
    };
    let ptr = raw as usize;
    if ptr <= 0x10000 || ptr >= 1 << 47 || ptr % width != 0 {
        return Got::Plain(raw);
    }
    // SAFETY: the library returned this word as a pointer to a value of `width` bytes that
    // stays valid while the attribute is unchanged (attributes.md §3); the model says it should be
    // one, and it is aligned and in the user address range, so it is no stored test word.
    let content = unsafe {
        if width == 4 {
            i64::from((ptr as *const i32).read())
        } else {
            (ptr as *const i64).read()
        }
    };
    Got::Cell { ptr, content }
}

#[derive(Debug)]
enum GotOutcome {
    Ok,
    Err(i32),
    Value(Option<Got>),
    New(usize),
}

struct Inner<O> {
    handles: Vec<(O, Kind)>,
    numbers: Vec<i32>,
    expected: Vec<Event>,
    cursor: usize,
    failure: Option<String>,
    /// The objects of the callbacks running, innermost last.
    stack: Vec<(O, Kind)>,
    /// Where each cell was seen first.
    cells: HashMap<CellKey, usize>,
    /// What was observed of the current operation (for failure reports).
    seen: Vec<String>,
    callbacks: usize,
    reentries: usize,
}

pub struct Driver<B: Backend> {
    pub backend: B,
    inner: RefCell<Inner<B::Obj>>,
}

impl<B: Backend> Driver<B> {
    pub fn new(backend: B, model: &Model) -> Driver<B> {
        use super::reference::Keyval;
        let numbers = model
            .keyvals
            .iter()
            .map(|k| match k {
                Keyval::Predefined { number, .. } => *number,
                Keyval::Invalid => mpiattr::abi::MPI_KEYVAL_INVALID as i32,
                Keyval::Unknown => UNKNOWN_KEYVAL,
                Keyval::User(_) => panic!("a new model has no user keyvals"),
            })
            .collect();
        let kinds = [Kind::Comm, Kind::Comm, Kind::Type, Kind::Type];
        let handles = backend.predefined().into_iter().zip(kinds).collect();
        Driver {
            backend,
            inner: RefCell::new(Inner {
                handles,
                numbers,
                expected: Vec::new(),
                cursor: 0,
                failure: None,
                stack: Vec::new(),
                cells: HashMap::new(),
                seen: Vec::new(),
                callbacks: 0,
                reentries: 0,
            }),
        }
    }

    /// Lists an object made outside the program (the threads test's shared communicators).
    pub fn list(&self, obj: B::Obj, kind: Kind) {
        self.inner.borrow_mut().handles.push((obj, kind));
    }

    /// Callbacks called and acts they performed so far.
    pub fn counted(&self) -> (usize, usize) {
        let inner = self.inner.borrow();
        (inner.callbacks, inner.reentries)
    }

    pub fn handle(&self, pos: usize) -> (B::Obj, Kind) {
        self.inner.borrow().handles[pos]
    }

    pub fn number(&self, kv: KvId) -> i32 {
        self.inner.borrow().numbers[kv]
    }

    /// Records a failure a backend found (the first one counts).
    pub fn note(&self, message: String) {
        self.fail(message);
    }

    fn fail(&self, message: String) {
        let mut inner = self.inner.borrow_mut();
        if inner.failure.is_none() {
            let context = inner.seen.join("\n    ");
            let trace: Vec<String> = inner.expected.iter().map(|e| format!("{e:?}")).collect();
            inner.failure = Some(format!(
                "{message}\n  observed so far in this operation:\n    {context}\n  \
                 the model's trace of it:\n    {}",
                trace.join("\n    ")
            ));
        }
    }

    fn failed(&self) -> bool {
        self.inner.borrow().failure.is_some()
    }

    fn next_expected(&self) -> Option<Event> {
        let mut inner = self.inner.borrow_mut();
        let e = inner.expected.get(inner.cursor).copied();
        inner.cursor += 1;
        e
    }

    fn peek_expected(&self) -> Option<Event> {
        let inner = self.inner.borrow();
        inner.expected.get(inner.cursor).copied()
    }

    fn agree_value(&self, expected: &Seen, got: &Got) -> bool {
        match (expected, got) {
            (Seen::Plain(a), Got::Plain(b)) => a == b,
            (Seen::Cell { content, key, .. }, Got::Cell { ptr, content: c }) => {
                let mut inner = self.inner.borrow_mut();
                let first = *inner.cells.entry(*key).or_insert(*ptr);
                content == c && first == *ptr
            }
            _ => false,
        }
    }

    fn agree_outcome(&self, expected: &Outcome, got: &GotOutcome) -> bool {
        match (expected, got) {
            (Outcome::Ok, GotOutcome::Ok) => true,
            (Outcome::Err(a), GotOutcome::Err(b)) => a == b,
            (Outcome::New(a), GotOutcome::New(b)) => a == b,
            (Outcome::Value(None), GotOutcome::Value(None)) => true,
            (Outcome::Value(Some(e)), GotOutcome::Value(Some(g))) => self.agree_value(e, g),
            _ => false,
        }
    }

    /// Runs one operation's act and checks everything observed against the model's trace.
    pub fn step(&self, act: super::reference::Act, trace: &[Event]) -> Result<(), String> {
        {
            let mut inner = self.inner.borrow_mut();
            inner.expected = trace.to_vec();
            inner.cursor = 0;
            inner.seen.clear();
        }
        self.exec(act, None);
        let inner = self.inner.borrow();
        if let Some(f) = &inner.failure {
            return Err(f.clone());
        }
        if inner.cursor != inner.expected.len() {
            return Err(format!(
                "the model expected more: {:?}",
                &inner.expected[inner.cursor.min(inner.expected.len())..]
            ));
        }
        Ok(())
    }

    fn resolve(&self, at: At) -> (B::Obj, Kind) {
        let inner = self.inner.borrow();
        match at {
            At::Listed(pos) => inner.handles[pos],
            At::Callback => *inner.stack.last().expect("an act inside a callback"),
        }
    }

    /// Performs an act, then checks its outcome against the next expected event.
    fn exec(&self, act: super::reference::Act, _callback: Option<(B::Obj, Kind)>) {
        use super::reference::Act;
        let b = &self.backend;
        let unit = |r: Result<(), i32>| match r {
            Ok(()) => GotOutcome::Ok,
            Err(c) => GotOutcome::Err(c),
        };
        let got = match act {
            Act::CreateKeyval {
                kind,
                conv,
                copy,
                delete,
                alt,
            } => match b.create_keyval(kind, conv, copy, delete, alt) {
                Ok(number) => {
                    let mut inner = self.inner.borrow_mut();
                    inner.numbers.push(number);
                    GotOutcome::New(inner.numbers.len() - 1)
                }
                Err(c) => GotOutcome::Err(c),
            },
            Act::FreeKeyval { kv, kind, alt } => unit(b.free_keyval(kind, self.number(kv), alt)),
            Act::Set {
                at,
                kv,
                lang,
                word,
                alt,
            } => {
                let (obj, kind) = self.resolve(at);
                unit(b.set(obj, kind, self.number(kv), lang, word, alt))
            }
            Act::Get { at, kv, lang, alt } => {
                let (obj, kind) = self.resolve(at);
                match b.get(obj, kind, self.number(kv), lang, alt) {
                    Ok(None) => GotOutcome::Value(None),
                    Ok(Some(raw)) => {
                        let expected = match self.peek_expected() {
                            Some(Event::Done(Outcome::Value(Some(seen)))) => Some(seen),
                            _ => None,
                        };
                        GotOutcome::Value(Some(observe(raw, expected.as_ref())))
                    }
                    Err(c) => GotOutcome::Err(c),
                }
            }
            Act::Delete { at, kv, alt } => {
                let (obj, kind) = self.resolve(at);
                unit(b.delete(obj, kind, self.number(kv), alt))
            }
            Act::Dup { at, alt } => {
                let (obj, kind) = self.resolve(at);
                match b.dup(obj, kind, alt) {
                    Ok(new) => {
                        let mut inner = self.inner.borrow_mut();
                        inner.handles.push((new, kind));
                        GotOutcome::New(inner.handles.len() - 1)
                    }
                    Err(c) => GotOutcome::Err(c),
                }
            }
            Act::Free { at } => {
                let (obj, kind) = self.resolve(at);
                unit(b.free(obj, kind))
            }
            Act::Create { kind, variant } => match b.create(kind, variant) {
                Ok(new) => {
                    let mut inner = self.inner.borrow_mut();
                    inner.handles.push((new, kind));
                    GotOutcome::New(inner.handles.len() - 1)
                }
                Err(c) => GotOutcome::Err(c),
            },
            Act::Finalize => unit(b.finalize()),
            Act::Skip => GotOutcome::Ok,
        };
        self.inner
            .borrow_mut()
            .seen
            .push(format!("{act:?} -> {got:?}"));
        match self.next_expected() {
            Some(Event::Done(expected)) if self.agree_outcome(&expected, &got) => {}
            other => self.fail(format!(
                "{act:?}: the library gave {got:?}, the model expected {other:?}"
            )),
        }
    }

    /// What a backend's callback calls: checks the call against the trace, performs the
    /// acts the trace has the callback perform, and returns what it says.
    pub fn callback(
        &self,
        copy: bool,
        number: i32,
        obj: B::Obj,
        kind: Kind,
        raw: i64,
    ) -> CallbackResult {
        if self.failed() {
            return Err(ERR_OTHER);
        }
        let expected = self.next_expected();
        let (kv, name) = {
            let inner = self.inner.borrow();
            let kv = inner.numbers.iter().position(|&n| n == number);
            let name = match inner
                .handles
                .iter()
                .position(|&(h, k)| h == obj && k == kind)
            {
                Some(p) => Name::Listed(p),
                None => Name::Fresh,
            };
            (kv, name)
        };
        let expected_seen = match &expected {
            Some(Event::Callback { seen, .. }) => Some(*seen),
            _ => None,
        };
        let got = observe(raw, expected_seen.as_ref());
        let what = format!(
            "{} callback of keyval {kv:?} ({number}) on {name:?} shown {got:?}",
            if copy { "copy" } else { "delete" }
        );
        self.inner.borrow_mut().seen.push(what.clone());
        let agrees = match &expected {
            Some(Event::Callback {
                copy: c,
                kv: k,
                obj: o,
                seen,
            }) => *c == copy && Some(*k) == kv && *o == name && self.agree_value(seen, &got),
            _ => false,
        };
        if !agrees {
            self.fail(format!(
                "the library called the {what}; the model expected {expected:?}"
            ));
            return Err(ERR_OTHER);
        }
        {
            let mut inner = self.inner.borrow_mut();
            inner.stack.push((obj, kind));
            inner.callbacks += 1;
        }
        let result = loop {
            match self.next_expected() {
                Some(Event::Act(act)) => {
                    self.inner.borrow_mut().reentries += 1;
                    self.exec(act, Some((obj, kind)))
                }
                Some(Event::Return(ret)) => {
                    break match ret {
                        Ret::Fail(code) => Err(code),
                        Ret::Delete | Ret::Copy(Produced::Nothing) => Ok(None),
                        Ret::Copy(Produced::Shown) => Ok(Some(raw)),
                        Ret::Copy(Produced::Word(w)) => Ok(Some(w)),
                    };
                }
                other => {
                    self.fail(format!("inside the {what}: the model expected {other:?}"));
                    break Err(ERR_OTHER);
                }
            }
            if self.failed() {
                break Err(ERR_OTHER);
            }
        };
        self.inner.borrow_mut().stack.pop();
        result
    }

    /// Compares the visible state with the model: every value of every keyval in every view
    /// on `objects` (listed positions), for `keyvals`, and the counts the backend has.
    pub fn check_state(
        &self,
        model: &Model,
        objects: &[usize],
        keyvals: &[KvId],
    ) -> Result<(), String> {
        for &pos in objects {
            let (obj, kind) = self.handle(pos);
            let id = model.listed[pos];
            for &kv in keyvals {
                let number = self.number(kv);
                let langs: &[Lang] = if kind == Kind::Comm {
                    &[Lang::C, Lang::FAddr, Lang::FInt]
                } else {
                    &[Lang::C, Lang::FAddr]
                };
                for &lang in langs {
                    let expected = model.get(id, kv, lang);
                    let got = match self.backend.get(obj, kind, number, lang, false) {
                        Ok(None) => GotOutcome::Value(None),
                        Ok(Some(raw)) => {
                            let seen = match &expected {
                                Outcome::Value(Some(s)) => Some(*s),
                                _ => None,
                            };
                            GotOutcome::Value(Some(observe(raw, seen.as_ref())))
                        }
                        Err(c) => GotOutcome::Err(c),
                    };
                    if !self.agree_outcome(&expected, &got) {
                        return Err(format!(
                            "state: object {pos} ({kind:?}), keyval {kv} ({number}), {lang:?} view: \
                             the library gives {got:?}, the model {expected:?}"
                        ));
                    }
                }
            }
        }
        let handles = self.inner.borrow().handles.clone();
        if let Some(counts) = self.backend.counts(&handles) {
            let expected = Counts {
                keyvals: model.keyval_count(),
                objects: [
                    model.user_objects(Kind::Comm),
                    model.user_objects(Kind::Type),
                    model.user_objects(Kind::Win),
                ],
                attrs: (0..handles.len()).map(|p| model.attr_count(p)).collect(),
            };
            if counts != expected {
                return Err(format!(
                    "counts: the library has {counts:?}, the model {expected:?}"
                ));
            }
        }
        Ok(())
    }
}

/// Runs programs against a driver, checking the state after every operation: live objects ×
/// live keyvals always (and whatever died in the operation), everything every `full_every`
/// operations and after the last.
pub struct Checker {
    pub full_every: usize,
    live_objects: Vec<usize>,
    live_keyvals: Vec<KvId>,
    steps: usize,
}

impl Checker {
    pub fn new(full_every: usize) -> Checker {
        Checker {
            full_every,
            live_objects: Vec::new(),
            live_keyvals: Vec::new(),
            steps: 0,
        }
    }

    /// What a full comparison covers: every object alive and the 8 that died last, every
    /// predefined keyval, the numbers that name none, every keyval alive and the 8 that went
    /// last (the stale ones are all alike).
    fn everything(model: &Model) -> (Vec<usize>, Vec<KvId>) {
        let mut objects = model.live_positions();
        let dead = (0..model.listed.len())
            .rev()
            .filter(|p| !model.objects[model.listed[*p]].alive)
            .take(8);
        objects.extend(dead);
        let user = |k: &KvId| matches!(model.keyvals[*k], super::reference::Keyval::User(_));
        let mut keyvals: Vec<KvId> = (0..model.keyvals.len()).take_while(|k| !user(k)).collect();
        keyvals.extend(model.live_user_keyvals());
        let gone = (0..model.keyvals.len())
            .rev()
            .filter(|k| user(k) && !model.is_live(*k))
            .take(8);
        keyvals.extend(gone);
        (objects, keyvals)
    }

    /// Compares everything a full comparison covers.
    pub fn full<B: Backend>(&self, model: &Model, driver: &Driver<B>) -> Result<(), String> {
        let (objects, keyvals) = Self::everything(model);
        driver
            .check_state(model, &objects, &keyvals)
            .map_err(|e| format!("at the end: {e}"))
    }

    /// Runs one operation of a program on the model and through the driver, and compares.
    pub fn run<B: Backend>(
        &mut self,
        model: &mut Model,
        driver: &Driver<B>,
        op: &Op,
        last: bool,
    ) -> Result<(), String> {
        let (act, trace) = model.apply(op);
        driver
            .step(act, &trace)
            .map_err(|e| format!("{op:?} = {act:?}: {e}"))?;
        self.steps += 1;
        let full = last || self.steps % self.full_every == 0 || model.finalized;
        let (objects, keyvals) = if full {
            Self::everything(model)
        } else {
            let mut objects = model.live_positions();
            let died: Vec<usize> = self
                .live_objects
                .iter()
                .copied()
                .filter(|p| !objects.contains(p))
                .collect();
            objects.extend(died);
            let mut keyvals = model.live_user_keyvals();
            let went: Vec<KvId> = self
                .live_keyvals
                .iter()
                .copied()
                .filter(|k| !keyvals.contains(k))
                .collect();
            keyvals.extend(went);
            (objects, keyvals)
        };
        driver
            .check_state(model, &objects, &keyvals)
            .map_err(|e| format!("after {op:?} = {act:?}: {e}"))?;
        self.live_objects = (0..model.listed.len())
            .filter(|&p| model.objects[model.listed[p]].alive)
            .collect();
        self.live_keyvals = (0..model.keyvals.len())
            .filter(|&k| model.is_live(k))
            .collect();
        Ok(())
    }
}

/// Whether a program runs under MPI_THREAD_MULTIPLE: a third of them, chosen by their first
/// operation (so a replay runs as the original did).
pub fn multiple_for(first: Op) -> bool {
    encode(&[first]).iter().map(|&b| u32::from(b)).sum::<u32>() % 3 == 0
}

/// Runs a program from its first operation on through `driver`, checking after each
/// operation and everything after the last.
pub fn run_checked<B: Backend>(
    model: &mut Model,
    driver: &Driver<B>,
    first: Op,
    next: &mut dyn FnMut(&Model) -> Option<Op>,
) -> Result<Stats, Failure> {
    let mut checker = Checker::new(64);
    let mut step = 0;
    let mut op = Some(first);
    while let Some(o) = op {
        checker
            .run(model, driver, &o, false)
            .map_err(|message| Failure { step, message })?;
        step += 1;
        op = next(model);
    }
    checker
        .full(model, driver)
        .map_err(|message| Failure { step, message })?;
    let (callbacks, reentries) = driver.counted();
    Ok(Stats {
        ops: step,
        callbacks,
        reentries,
    })
}
