//! The Rust API as a [`Backend`]: a [`Universe`] of its own per program (or one shared by
//! the threads test), callbacks as closures reporting to the calling thread's driver.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use mpiattr::{
    abi, AnyObject, Comm, CopyAction, DeleteAction, ErrorClass, Keyval, KeyvalSpec, Language,
    ObjectKind, ThreadLevel, Universe, Win, Word,
};

use super::harness::{Failure, Stats};
use super::ops::{CopyB, DeleteB, Kind, Lang, Op};
use super::reference::{window_params, Model};
use super::run::{multiple_for, run_checked, Backend, Counts, Driver};

pub struct RustBackend {
    pub universe: Arc<Universe>,
    /// Whether to report counts (not when other threads share the universe).
    counts: bool,
    base: [usize; 3],
}

thread_local! {
    static DRIVER: RefCell<Option<Rc<Driver<RustBackend>>>> = const { RefCell::new(None) };
}

/// Makes `driver` the one this thread's callbacks report to.
pub fn install(driver: Option<Rc<Driver<RustBackend>>>) {
    DRIVER.with(|d| *d.borrow_mut() = driver);
}

fn current() -> Option<Rc<Driver<RustBackend>>> {
    DRIVER.with(|d| d.borrow().clone())
}

fn kind_of(obj: AnyObject) -> Kind {
    match obj.kind() {
        ObjectKind::Comm => Kind::Comm,
        ObjectKind::Datatype => Kind::Type,
        ObjectKind::Win => Kind::Win,
    }
}

fn object_kind(kind: Kind) -> ObjectKind {
    match kind {
        Kind::Comm => ObjectKind::Comm,
        Kind::Type => ObjectKind::Datatype,
        Kind::Win => ObjectKind::Win,
    }
}

pub fn language(lang: Lang) -> Language {
    match lang {
        Lang::C => Language::C,
        Lang::FInt => Language::FortranInteger,
        Lang::FAddr => Language::FortranAddress,
    }
}

fn class(e: mpiattr::Error) -> i32 {
    // MODEL_DEBUG=1 shows the engine's own errors (classes hide which check refused).
    static DEBUG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *DEBUG.get_or_init(|| std::env::var_os("MODEL_DEBUG").is_some()) {
        eprintln!("engine error: {e:?}");
    }
    e.class() as i32
}

fn unit(r: mpiattr::Result<()>) -> Result<(), i32> {
    r.map_err(class)
}

/// Calls a typed engine function on an `AnyObject`.
macro_rules! on {
    ($obj:expr, |$o:ident| $body:expr) => {
        match $obj {
            AnyObject::Comm($o) => $body,
            AnyObject::Datatype($o) => $body,
            AnyObject::Win($o) => $body,
        }
    };
}

impl RustBackend {
    pub fn new(universe: Arc<Universe>, counts: bool) -> RustBackend {
        let count = |k| universe.object_count(k).unwrap_or(0);
        let base = [
            count(ObjectKind::Comm),
            count(ObjectKind::Datatype),
            count(ObjectKind::Win),
        ];
        RustBackend {
            universe,
            counts,
            base,
        }
    }
}

impl Backend for RustBackend {
    type Obj = AnyObject;

    fn predefined(&self) -> [AnyObject; 4] {
        let datatype =
            |h| AnyObject::Datatype(Universe::predefined_datatype(h as usize).expect("predefined"));
        [
            AnyObject::Comm(Comm::WORLD),
            AnyObject::Comm(Comm::SELF),
            datatype(abi::MPIATTR_HANDLE_MPI_INT),
            datatype(abi::MPIATTR_HANDLE_MPI_DOUBLE),
        ]
    }

    fn create_keyval(
        &self,
        kind: Kind,
        conv: Lang,
        copy: CopyB,
        delete: DeleteB,
        _alt: bool,
    ) -> Result<i32, i32> {
        let copy = match copy {
            CopyB::Null => CopyAction::Null,
            CopyB::Dup => CopyAction::Dup,
            CopyB::Call => CopyAction::Call(Arc::new(
                |_: &Universe, obj: AnyObject, kv: Keyval, value: Word| match current() {
                    Some(d) => d
                        .callback(true, kv.0, obj, kind_of(obj), value as i64)
                        .map(|o| o.map(|w| w as Word)),
                    // A thread without a driver (after the threads test): a plain copy.
                    None => Ok(Some(value)),
                },
            )),
        };
        let delete = match delete {
            DeleteB::Null => DeleteAction::Null,
            DeleteB::Call => DeleteAction::Call(Arc::new(
                |_: &Universe, obj: AnyObject, kv: Keyval, value: Word| match current() {
                    Some(d) => d
                        .callback(false, kv.0, obj, kind_of(obj), value as i64)
                        .map(|_| ()),
                    None => Ok(()),
                },
            )),
        };
        self.universe
            .create_keyval(KeyvalSpec {
                kind: object_kind(kind),
                language: language(conv),
                copy,
                delete,
            })
            .map(|k| k.0)
            .map_err(class)
    }

    fn free_keyval(&self, kind: Kind, number: i32, _alt: bool) -> Result<(), i32> {
        unit(self.universe.free_keyval(object_kind(kind), Keyval(number)))
    }

    fn set(
        &self,
        obj: AnyObject,
        _kind: Kind,
        number: i32,
        lang: Lang,
        word: i64,
        _alt: bool,
    ) -> Result<(), i32> {
        // The shells' fast paths are not public: the C model (tests/model/c_api.rs) runs them.
        let (u, kv, l, w) = (&self.universe, Keyval(number), language(lang), word as Word);
        on!(obj, |o| unit(u.set_attr(o, kv, l, w)))
    }

    fn get(
        &self,
        obj: AnyObject,
        _kind: Kind,
        number: i32,
        lang: Lang,
        _alt: bool,
    ) -> Result<Option<i64>, i32> {
        let (u, kv, l) = (&self.universe, Keyval(number), language(lang));
        on!(obj, |o| {
            u.get_attr(o, kv, l)
                .map(|v| v.map(|w| w as i64))
                .map_err(class)
        })
    }

    fn delete(&self, obj: AnyObject, _kind: Kind, number: i32, _alt: bool) -> Result<(), i32> {
        let (u, kv) = (&self.universe, Keyval(number));
        on!(obj, |o| unit(u.delete_attr(o, kv)))
    }

    fn dup(&self, obj: AnyObject, _kind: Kind, alt: u8) -> Result<AnyObject, i32> {
        let u = &self.universe;
        match obj {
            AnyObject::Comm(c) if alt % 2 == 1 => {
                let (new, request) = u.comm_idup(c).map_err(class)?;
                u.request_complete(request).map_err(class)?;
                Ok(AnyObject::Comm(new))
            }
            AnyObject::Comm(c) => u.comm_dup(c).map(AnyObject::Comm).map_err(class),
            AnyObject::Datatype(t) => u.type_dup(t).map(AnyObject::Datatype).map_err(class),
            AnyObject::Win(_) => Err(ErrorClass::Win as i32),
        }
    }

    fn free(&self, obj: AnyObject, _kind: Kind) -> Result<(), i32> {
        let u = &self.universe;
        unit(match obj {
            AnyObject::Comm(c) => u.comm_free(c),
            AnyObject::Datatype(t) => u.type_free(t),
            AnyObject::Win(w) => u.win_free(w),
        })
    }

    fn create(&self, kind: Kind, variant: u8) -> Result<AnyObject, i32> {
        let u = &self.universe;
        match kind {
            Kind::Comm => match u.comm_split(Comm::WORLD, true).map_err(class)? {
                Some(c) => Ok(AnyObject::Comm(c)),
                None => Err(ErrorClass::Intern as i32),
            },
            Kind::Type => {
                let int = Universe::predefined_datatype(abi::MPIATTR_HANDLE_MPI_INT as usize)
                    .expect("MPI_INT");
                u.type_contiguous(usize::from(variant % 4) + 1, int)
                    .map(AnyObject::Datatype)
                    .map_err(class)
            }
            Kind::Win => {
                let (base, size, disp, dynamic) = window_params(variant);
                let win: mpiattr::Result<Win> = if dynamic {
                    u.win_create_dynamic(Comm::WORLD)
                } else {
                    u.win_create(Comm::WORLD, base as usize, size as isize, disp as i32)
                };
                win.map(AnyObject::Win).map_err(class)
            }
        }
    }

    fn finalize(&self) -> Result<(), i32> {
        unit(self.universe.finalize())
    }

    fn counts(&self, objects: &[(AnyObject, Kind)]) -> Option<Counts> {
        if !self.counts {
            return None;
        }
        let u = &self.universe;
        let count = |k, i: usize| u.object_count(k).unwrap_or(0).saturating_sub(self.base[i]);
        Some(Counts {
            keyvals: u.keyval_count().unwrap_or(0),
            objects: [
                count(ObjectKind::Comm, 0),
                count(ObjectKind::Datatype, 1),
                count(ObjectKind::Win, 2),
            ],
            attrs: objects
                .iter()
                .map(|(o, _)| on!(*o, |x| u.attr_count(x).ok()))
                .collect(),
        })
    }
}

/// One program on a universe of its own: MPI_THREAD_SINGLE or, for a third of the programs
/// (chosen by their first operation), MPI_THREAD_MULTIPLE.
pub fn run_program(next: &mut dyn FnMut(&Model) -> Option<Op>) -> Result<Stats, Failure> {
    let mut model = Model::new(false);
    let Some(first) = next(&model) else {
        return Ok(Stats::default());
    };
    let level = if multiple_for(first) {
        ThreadLevel::Multiple
    } else {
        ThreadLevel::Single
    };
    let universe = Arc::new(Universe::new(level));
    let driver = Rc::new(Driver::new(RustBackend::new(universe, true), &model));
    install(Some(driver.clone()));
    let result = run_checked(&mut model, &driver, first, next);
    install(None);
    result
}
