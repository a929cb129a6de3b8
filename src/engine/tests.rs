//! Tests of the engine through its public Rust API.

use std::sync::{Arc, Mutex};

use super::*;

type Log = Arc<Mutex<Vec<String>>>;

fn log() -> Log {
    Arc::new(Mutex::new(Vec::new()))
}

fn entries(log: &Log) -> Vec<String> {
    log.lock().unwrap().clone()
}

fn universe() -> Universe {
    Universe::new(ThreadLevel::Multiple)
}

fn spec(kind: ObjectKind, copy: CopyAction, delete: DeleteAction) -> KeyvalSpec {
    KeyvalSpec {
        kind,
        language: Language::C,
        copy,
        delete,
    }
}

/// A keyval with C callbacks.
fn keyval(u: &Universe, kind: ObjectKind, copy: CopyAction, delete: DeleteAction) -> Keyval {
    u.create_keyval(spec(kind, copy, delete)).unwrap()
}

/// A delete callback that logs "name:value" and fails when the value is `fail_on`.
fn logging_delete(log: &Log, name: &'static str, fail_on: Option<Word>) -> DeleteAction {
    let log = log.clone();
    DeleteAction::Call(Arc::new(
        move |_: &Universe, _: AnyObject, _: Keyval, value: Word| {
            log.lock().unwrap().push(format!("{name}:{value}"));
            if Some(value) == fail_on {
                Err(ErrorClass::Win as i32)
            } else {
                Ok(())
            }
        },
    ))
}

/// A copy callback that logs and returns value + 1, failing on `fail_on`.
fn logging_copy(log: &Log, name: &'static str, fail_on: Option<Word>) -> CopyAction {
    let log = log.clone();
    CopyAction::Call(Arc::new(
        move |_: &Universe, _: AnyObject, _: Keyval, value: Word| {
            log.lock().unwrap().push(format!("copy {name}:{value}"));
            if Some(value) == fail_on {
                Err(12345)
            } else {
                Ok(Some(value + 1))
            }
        },
    ))
}

#[test]
fn values_are_read_back_in_every_view() {
    let u = universe();
    let kv = keyval(&u, ObjectKind::Comm, CopyAction::Null, DeleteAction::Null);
    let comm = u.comm_dup(Comm::WORLD).unwrap();
    u.set_attr(comm, kv, Language::FortranAddress, (1 << 40) + 5)
        .unwrap();
    assert_eq!(
        u.get_attr(comm, kv, Language::FortranAddress).unwrap(),
        Some((1 << 40) + 5)
    );
    let integer = u.get_attr(comm, kv, Language::FortranInteger).unwrap();
    assert_eq!(integer, Some(((1isize << 40) + 5) as Fint as Word));
    let pointer = u.get_attr(comm, kv, Language::C).unwrap().unwrap();
    assert_ne!(pointer, (1 << 40) + 5, "C reads a pointer to the value");
    u.set_attr(comm, kv, Language::FortranInteger, -7).unwrap();
    assert_eq!(
        u.get_attr(comm, kv, Language::FortranAddress).unwrap(),
        Some(-7)
    );
    u.comm_free(comm).unwrap();
}

#[test]
fn predefined_attributes_and_keyvals() {
    let u = universe();
    let tag_ub = u
        .get_attr(Comm::WORLD, Keyval::TAG_UB, Language::FortranInteger)
        .unwrap();
    assert!(tag_ub.unwrap() >= 32767);
    assert_eq!(
        u.set_attr(Comm::WORLD, Keyval::TAG_UB, Language::C, 1),
        Err(Error::PredefinedKeyval)
    );
    assert_eq!(
        u.delete_attr(Comm::WORLD, Keyval::TAG_UB),
        Err(Error::PredefinedKeyval)
    );
    assert_eq!(
        u.free_keyval(ObjectKind::Comm, Keyval::TAG_UB),
        Err(Error::PredefinedKeyval)
    );
    let dup = u.comm_dup(Comm::WORLD).unwrap();
    assert_eq!(
        u.get_attr(dup, Keyval::TAG_UB, Language::FortranInteger)
            .unwrap(),
        tag_ub
    );
    assert_eq!(
        u.get_attr(Comm::SELF, Keyval::TAG_UB, Language::C).unwrap(),
        None
    );
    let (win, base) = u.win_allocate(Comm::WORLD, 100, 4).unwrap();
    assert_eq!(
        u.get_attr(win, Keyval::WIN_BASE, Language::C).unwrap(),
        Some(base as Word)
    );
    assert_eq!(
        u.get_attr(win, Keyval::WIN_SIZE, Language::FortranAddress)
            .unwrap(),
        Some(100)
    );
    assert_eq!(
        u.get_attr(win, Keyval::WIN_DISP_UNIT, Language::FortranInteger)
            .unwrap(),
        Some(4)
    );
    assert!(matches!(
        u.get_attr(win, Keyval::TAG_UB, Language::C),
        Err(Error::WrongKindKeyval { .. })
    ));
    u.win_free(win).unwrap();
}

#[test]
fn copy_in_set_order_delete_newest_first_replace_counts_as_newest() {
    let u = universe();
    let log = log();
    let keyvals: Vec<Keyval> = (0..4)
        .map(|_| {
            keyval(
                &u,
                ObjectKind::Comm,
                logging_copy(&log, "c", None),
                logging_delete(&log, "d", None),
            )
        })
        .collect();
    let comm = u.comm_dup(Comm::SELF).unwrap();
    for (i, kv) in keyvals.iter().enumerate() {
        u.set_attr(comm, *kv, Language::C, 10 * (i as Word + 1))
            .unwrap();
    }
    // Replace the first: its old value is deleted, and it becomes the newest.
    u.set_attr(comm, keyvals[0], Language::C, 11).unwrap();
    assert_eq!(entries(&log), ["d:10"]);
    log.lock().unwrap().clear();
    let copy = u.comm_dup(comm).unwrap();
    assert_eq!(
        entries(&log),
        ["copy c:20", "copy c:30", "copy c:40", "copy c:11"]
    );
    assert_eq!(u.get_attr(copy, keyvals[1], Language::C).unwrap(), Some(21));
    log.lock().unwrap().clear();
    u.comm_free(comm).unwrap();
    assert_eq!(entries(&log), ["d:11", "d:40", "d:30", "d:20"]);
    assert!(!u.is_valid(comm).unwrap());
    u.comm_free(copy).unwrap();
}

#[test]
fn flag_false_and_null_copy_leave_the_new_object_without_a_value() {
    let u = universe();
    let declined = keyval(
        &u,
        ObjectKind::Datatype,
        CopyAction::Call(Arc::new(
            |_: &Universe, _: AnyObject, _: Keyval, _: Word| Ok(None),
        )),
        DeleteAction::Null,
    );
    let null = keyval(
        &u,
        ObjectKind::Datatype,
        CopyAction::Null,
        DeleteAction::Null,
    );
    let dup = keyval(
        &u,
        ObjectKind::Datatype,
        CopyAction::Dup,
        DeleteAction::Null,
    );
    let int = Universe::predefined_datatype(crate::abi::MPIATTR_HANDLE_MPI_INT as usize).unwrap();
    for kv in [declined, null, dup] {
        u.set_attr(int, kv, Language::C, 5).unwrap();
    }
    let copy = u.type_dup(int).unwrap();
    assert_eq!(u.get_attr(copy, declined, Language::C).unwrap(), None);
    assert_eq!(u.get_attr(copy, null, Language::C).unwrap(), None);
    assert_eq!(u.get_attr(copy, dup, Language::C).unwrap(), Some(5));
    assert_eq!(u.type_size(copy).unwrap(), 4);
    let contiguous = u.type_contiguous(3, int).unwrap();
    assert_eq!(u.get_attr(contiguous, dup, Language::C).unwrap(), None);
    assert_eq!(u.type_size(contiguous).unwrap(), 12);
}

#[test]
fn deferred_keyval_free_and_stale_numbers() {
    let u = universe();
    let log = log();
    let kv = keyval(
        &u,
        ObjectKind::Comm,
        CopyAction::Dup,
        logging_delete(&log, "d", None),
    );
    let comm = u.comm_dup(Comm::WORLD).unwrap();
    u.set_attr(comm, kv, Language::C, 1).unwrap();
    u.free_keyval(ObjectKind::Comm, kv).unwrap();
    assert_eq!(u.get_attr(comm, kv, Language::C).unwrap(), Some(1));
    assert_eq!(
        u.set_attr(comm, kv, Language::C, 2),
        Err(Error::FreedKeyval)
    );
    assert_eq!(
        u.free_keyval(ObjectKind::Comm, kv),
        Ok(()),
        "freeing again does nothing"
    );
    let copy = u.comm_dup(comm).unwrap();
    assert_eq!(u.get_attr(copy, kv, Language::C).unwrap(), Some(1));
    u.delete_attr(comm, kv).unwrap();
    u.comm_free(copy).unwrap();
    assert_eq!(entries(&log), ["d:1", "d:1"]);
    assert_eq!(u.get_attr(comm, kv, Language::C), Err(Error::InvalidKeyval));
    assert_eq!(
        u.free_keyval(ObjectKind::Comm, kv),
        Err(Error::InvalidKeyval)
    );
    for _ in 0..1000 {
        let fresh = keyval(&u, ObjectKind::Comm, CopyAction::Null, DeleteAction::Null);
        assert_ne!(fresh, kv);
        assert!(fresh.0 > 0);
    }
}

#[test]
fn wrong_kind_keyvals_are_refused() {
    let u = universe();
    let win_kv = keyval(&u, ObjectKind::Win, CopyAction::Null, DeleteAction::Null);
    assert!(matches!(
        u.set_attr(Comm::WORLD, win_kv, Language::C, 1),
        Err(Error::WrongKindKeyval { .. })
    ));
    assert!(matches!(
        u.free_keyval(ObjectKind::Datatype, win_kv),
        Err(Error::WrongKindKeyval { .. })
    ));
    assert_eq!(
        Error::WrongKindKeyval {
            found: ObjectKind::Win,
            expected: ObjectKind::Comm
        }
        .class(),
        ErrorClass::Keyval
    );
}

#[test]
fn failed_dup_rolls_back_and_leaves_the_source_unchanged() {
    let u = universe();
    let log = log();
    let keyvals: Vec<Keyval> = (0..5)
        .map(|_| {
            keyval(
                &u,
                ObjectKind::Comm,
                logging_copy(&log, "c", Some(30)),
                logging_delete(&log, "d", None),
            )
        })
        .collect();
    let comm = u.comm_dup(Comm::SELF).unwrap();
    for (i, kv) in keyvals.iter().enumerate() {
        u.set_attr(comm, *kv, Language::C, 10 * (i as Word + 1))
            .unwrap();
    }
    let before = u.object_count(ObjectKind::Comm).unwrap();
    let error = u.comm_dup(comm).unwrap_err();
    assert_eq!(
        error,
        Error::Callback {
            kind: "copy",
            code: 12345
        }
    );
    assert_eq!(error.return_code(), ErrorClass::Other as i32);
    // Copies of 10 and 20 were made (as 11 and 21) and deleted newest first.
    assert_eq!(
        entries(&log),
        ["copy c:10", "copy c:20", "copy c:30", "d:21", "d:11"]
    );
    assert_eq!(u.object_count(ObjectKind::Comm).unwrap(), before);
    for (i, kv) in keyvals.iter().enumerate() {
        assert_eq!(
            u.get_attr(comm, *kv, Language::C).unwrap(),
            Some(10 * (i as Word + 1))
        );
    }
}

#[test]
fn failed_deletes_keep_the_value_and_failed_frees_keep_the_object() {
    let u = universe();
    let log = log();
    let failing = Arc::new(Mutex::new(true));
    let switch = failing.clone();
    let log2 = log.clone();
    let kv_fail = keyval(
        &u,
        ObjectKind::Win,
        CopyAction::Null,
        DeleteAction::Call(Arc::new(
            move |_: &Universe, _: AnyObject, _: Keyval, v: Word| {
                log2.lock().unwrap().push(format!("f:{v}"));
                if *switch.lock().unwrap() {
                    Err(ErrorClass::Win as i32)
                } else {
                    Ok(())
                }
            },
        )),
    );
    let kv_ok = keyval(
        &u,
        ObjectKind::Win,
        CopyAction::Null,
        logging_delete(&log, "ok", None),
    );
    let win = u.win_create_dynamic(Comm::WORLD).unwrap();
    u.set_attr(win, kv_ok, Language::C, 1).unwrap();
    u.set_attr(win, kv_fail, Language::C, 2).unwrap();
    u.set_attr(win, kv_ok, Language::C, 3).unwrap();
    // Deleting fails: the value stays. Setting over it fails: the old value stays.
    assert_eq!(
        u.delete_attr(win, kv_fail).unwrap_err().return_code(),
        ErrorClass::Win as i32
    );
    assert_eq!(u.get_attr(win, kv_fail, Language::C).unwrap(), Some(2));
    assert!(u.set_attr(win, kv_fail, Language::C, 9).is_err());
    assert_eq!(u.get_attr(win, kv_fail, Language::C).unwrap(), Some(2));
    log.lock().unwrap().clear();
    // Free: every callback is tried, the failed value stays, the window stays valid.
    assert!(u.win_free(win).is_err());
    assert_eq!(entries(&log), ["ok:3", "f:2"]);
    assert!(u.is_valid(win).unwrap());
    assert_eq!(u.get_attr(win, kv_fail, Language::C).unwrap(), Some(2));
    assert_eq!(u.get_attr(win, kv_ok, Language::C).unwrap(), None);
    *failing.lock().unwrap() = false;
    u.win_free(win).unwrap();
    assert!(!u.is_valid(win).unwrap());
}

#[test]
fn delete_callbacks_may_delete_siblings_read_and_free_their_keyval() {
    let u = Arc::new(universe());
    let log = log();
    let siblings: Arc<Mutex<Vec<Keyval>>> = Arc::default();
    let sibling_delete = logging_delete(&log, "sibling", None);
    for _ in 0..3 {
        let kv = keyval(
            &u,
            ObjectKind::Comm,
            CopyAction::Null,
            sibling_delete.clone(),
        );
        siblings.lock().unwrap().push(kv);
    }
    let all = siblings.clone();
    let log2 = log.clone();
    let leader = keyval(
        &u,
        ObjectKind::Comm,
        CopyAction::Null,
        DeleteAction::Call(Arc::new(
            move |u: &Universe, object: AnyObject, own: Keyval, _: Word| {
                let AnyObject::Comm(comm) = object else {
                    return Err(1);
                };
                for kv in all.lock().unwrap().iter() {
                    let seen = u
                        .get_attr(comm, *kv, Language::C)
                        .map_err(|e| e.return_code())?;
                    log2.lock().unwrap().push(format!("leader saw {seen:?}"));
                    u.delete_attr(comm, *kv).map_err(|e| e.return_code())?;
                }
                u.free_keyval(ObjectKind::Comm, own)
                    .map_err(|e| e.return_code())?;
                Ok(())
            },
        )),
    );
    let comm = u.comm_dup(Comm::WORLD).unwrap();
    for (i, kv) in siblings.lock().unwrap().iter().enumerate() {
        u.set_attr(comm, *kv, Language::C, i as Word).unwrap();
    }
    u.set_attr(comm, leader, Language::C, 99).unwrap();
    u.comm_free(comm).unwrap();
    assert_eq!(
        entries(&log),
        [
            "leader saw Some(0)",
            "sibling:0",
            "leader saw Some(1)",
            "sibling:1",
            "leader saw Some(2)",
            "sibling:2"
        ]
    );
    assert_eq!(
        u.get_attr(Comm::WORLD, leader, Language::C),
        Err(Error::InvalidKeyval)
    );
}

#[test]
fn freeing_an_object_inside_its_own_free_is_refused() {
    let u = universe();
    let kv = keyval(
        &u,
        ObjectKind::Comm,
        CopyAction::Null,
        DeleteAction::Call(Arc::new(
            |u: &Universe, object: AnyObject, _: Keyval, _: Word| {
                let AnyObject::Comm(comm) = object else {
                    return Err(1);
                };
                match u.comm_free(comm) {
                    Err(Error::BeingFreed(ObjectKind::Comm)) => Ok(()),
                    _ => Err(2),
                }
            },
        )),
    );
    let comm = u.comm_dup(Comm::WORLD).unwrap();
    u.set_attr(comm, kv, Language::C, 1).unwrap();
    u.comm_free(comm).unwrap();
}

#[test]
fn finalize_deletes_self_then_world_newest_first() {
    let u = universe();
    let log = log();
    let kv = keyval(
        &u,
        ObjectKind::Comm,
        CopyAction::Null,
        logging_delete(&log, "d", None),
    );
    let kv2 = keyval(
        &u,
        ObjectKind::Comm,
        CopyAction::Null,
        logging_delete(&log, "e", None),
    );
    u.set_attr(Comm::WORLD, kv, Language::C, 1).unwrap();
    u.set_attr(Comm::SELF, kv, Language::C, 2).unwrap();
    u.set_attr(Comm::SELF, kv2, Language::C, 3).unwrap();
    u.finalize().unwrap();
    assert_eq!(entries(&log), ["e:3", "d:2", "d:1"]);
}

#[test]
fn single_level_refuses_other_threads() {
    let u = Arc::new(Universe::new(ThreadLevel::Single));
    assert!(u.is_main_thread());
    let other = u.clone();
    let result = std::thread::spawn(move || other.comm_dup(Comm::WORLD))
        .join()
        .unwrap();
    assert_eq!(result, Err(Error::WrongThread));
}

#[test]
fn threads_with_reentrant_callbacks() {
    let u = Arc::new(universe());
    let copies = Arc::new(Mutex::new(0usize));
    let deletes = Arc::new(Mutex::new(0usize));
    let (c, d) = (copies.clone(), deletes.clone());
    let kv = keyval(
        &u,
        ObjectKind::Comm,
        CopyAction::Call(Arc::new(
            move |u: &Universe, object: AnyObject, kv: Keyval, v: Word| {
                let AnyObject::Comm(comm) = object else {
                    return Err(1);
                };
                // Re-enter: read the value being copied and dup another communicator.
                assert_eq!(u.get_attr(comm, kv, Language::C).unwrap(), Some(v));
                let other = u.comm_dup(Comm::SELF).map_err(|e| e.return_code())?;
                u.comm_free(other).map_err(|e| e.return_code())?;
                *c.lock().unwrap() += 1;
                Ok(Some(v))
            },
        )),
        DeleteAction::Call(Arc::new(
            move |_: &Universe, _: AnyObject, _: Keyval, _: Word| {
                *d.lock().unwrap() += 1;
                Ok(())
            },
        )),
    );
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let u = u.clone();
            std::thread::spawn(move || {
                for i in 0..500 {
                    let comm = u.comm_dup(Comm::WORLD).unwrap();
                    u.set_attr(comm, kv, Language::C, t * 1000 + i).unwrap();
                    let copy = u.comm_dup(comm).unwrap();
                    assert_eq!(
                        u.get_attr(copy, kv, Language::C).unwrap(),
                        Some(t * 1000 + i)
                    );
                    u.comm_free(comm).unwrap();
                    u.comm_free(copy).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(*copies.lock().unwrap(), 2000);
    assert_eq!(*deletes.lock().unwrap(), 4000);
}

#[test]
fn objects_without_attributes_spend_nothing_and_stale_handles_fail() {
    let u = universe();
    let comm = u.comm_dup(Comm::SELF).unwrap();
    assert_eq!(u.attr_count(comm).unwrap(), 0);
    u.comm_free(comm).unwrap();
    assert_eq!(
        u.comm_free(comm),
        Err(Error::InvalidHandle(ObjectKind::Comm, HandleProblem::Freed))
    );
    assert_eq!(
        u.comm_free(Comm::WORLD),
        Err(Error::PredefinedObject(ObjectKind::Comm))
    );
    let mut many = Vec::new();
    for _ in 0..3000 {
        many.push(u.comm_dup(Comm::SELF).unwrap());
    }
    for c in &many {
        u.comm_free(*c).unwrap();
    }
    for _ in 0..3000 {
        let fresh = u.comm_dup(Comm::SELF).unwrap();
        assert_ne!(fresh, comm, "a stale handle never names a new object");
    }
}

#[test]
fn a_failed_free_keeps_the_predefined_attributes() {
    let u = universe();
    let kv = keyval(
        &u,
        ObjectKind::Win,
        CopyAction::Null,
        DeleteAction::Call(Arc::new(
            |_: &Universe, _: AnyObject, _: Keyval, v: Word| {
                if v == 1 {
                    Err(ErrorClass::Other as i32)
                } else {
                    Ok(())
                }
            },
        )),
    );
    let (win, base) = u.win_allocate(Comm::WORLD, 64, 1).unwrap();
    u.set_attr(win, kv, Language::C, 1).unwrap();
    assert!(u.win_free(win).is_err());
    assert_eq!(
        u.get_attr(win, Keyval::WIN_BASE, Language::C).unwrap(),
        Some(base as Word)
    );
    assert_eq!(
        u.get_attr(win, Keyval::WIN_SIZE, Language::FortranAddress)
            .unwrap(),
        Some(64)
    );
    u.set_attr(win, kv, Language::C, 2).unwrap_err();
    u.delete_attr(win, kv).unwrap_err();
    assert_eq!(u.attr_count(win).unwrap(), 6);
    let dup_world = u.comm_dup(Comm::WORLD).unwrap();
    u.comm_free(dup_world).unwrap();
    assert!(!u.is_valid(dup_world).unwrap());
}

#[test]
fn fortran_values_get_a_cell_for_c_readers_only_and_lose_it_with_the_value() {
    let u = universe();
    let cells = |u: &Universe| u.lock().unwrap().cells.len();
    let dup = keyval(&u, ObjectKind::Comm, CopyAction::Dup, DeleteAction::Null);
    let other = keyval(&u, ObjectKind::Comm, CopyAction::Dup, DeleteAction::Null);
    let comm = u.comm_dup(Comm::SELF).unwrap();
    u.set_attr(comm, dup, Language::FortranAddress, 1 << 40)
        .unwrap();
    u.set_attr(comm, other, Language::FortranInteger, -7)
        .unwrap();
    assert_eq!(cells(&u), 0, "Fortran readers need no cell");
    assert_eq!(
        u.get_attr(comm, dup, Language::FortranAddress).unwrap(),
        Some(1 << 40)
    );
    assert_eq!(cells(&u), 0);
    let pointer = u.get_attr(comm, dup, Language::C).unwrap().unwrap();
    assert_eq!(cells(&u), 1, "a C reader gets one");
    assert_eq!(u.get_attr(comm, dup, Language::C).unwrap(), Some(pointer));
    assert_eq!(cells(&u), 1, "the same one every time");
    let copy = u.comm_dup(comm).unwrap();
    let copied = u.get_attr(copy, dup, Language::C).unwrap().unwrap();
    assert_ne!(copied, pointer, "the copy's cell is its own");
    assert_eq!(cells(&u), 2);
    u.set_attr(comm, dup, Language::FortranAddress, 5).unwrap(); // replaced: cell gone
    assert_eq!(cells(&u), 1);
    u.get_attr(comm, other, Language::C).unwrap();
    u.delete_attr(comm, other).unwrap(); // deleted: cell gone
    assert_eq!(cells(&u), 1);
    u.comm_free(copy).unwrap(); // freed: cell gone
    assert_eq!(cells(&u), 0);
    u.comm_free(comm).unwrap();
}

/// Found by the randomized test (model_rust): during a free, a delete callback deletes
/// another value of the object whose keyval was freed, so that keyval goes; the free must not
/// then fail with MPI_ERR_KEYVAL for the value that is already gone.
#[test]
fn a_free_survives_a_callback_deleting_a_value_whose_keyval_then_goes() {
    let u = universe();
    let comm = u.comm_dup(Comm::WORLD).unwrap();
    let l = log();
    let older = keyval(
        &u,
        ObjectKind::Comm,
        CopyAction::Null,
        logging_delete(&l, "older", None),
    );
    u.set_attr(comm, older, Language::C, 1).unwrap();
    u.free_keyval(ObjectKind::Comm, older).unwrap(); // lives on for its value
    let deleter = DeleteAction::Call(Arc::new(
        move |u: &Universe, obj: AnyObject, _: Keyval, _: Word| {
            let AnyObject::Comm(c) = obj else { panic!() };
            u.delete_attr(c, older).map_err(|e| e.class() as i32)
        },
    ));
    let newer = keyval(&u, ObjectKind::Comm, CopyAction::Null, deleter);
    u.set_attr(comm, newer, Language::C, 2).unwrap();
    // Newest first: `newer`'s callback deletes `older`'s value, and `older` goes.
    u.comm_free(comm).unwrap();
    assert_eq!(entries(&l), vec!["older:1"]);
    assert!(!u.is_valid(comm).unwrap());
    assert_eq!(
        u.get_attr(Comm::WORLD, older, Language::C)
            .unwrap_err()
            .class(),
        ErrorClass::Keyval
    );
}

/// After finalize nothing new can be made, so no keyval number or address is handed out
/// again: the calls that take no handle fail with Error::Finalized.
#[test]
fn nothing_is_made_after_finalize() {
    let u = universe();
    let before = keyval(&u, ObjectKind::Comm, CopyAction::Null, DeleteAction::Null);
    u.alloc_mem(64).unwrap(); // finalize releases it with everything else
    u.finalize().unwrap();
    let spec = spec(ObjectKind::Comm, CopyAction::Null, DeleteAction::Null);
    assert_eq!(u.create_keyval(spec).unwrap_err(), Error::Finalized);
    assert_eq!(u.alloc_mem(64).unwrap_err(), Error::Finalized);
    assert_eq!(
        u.get_attr(Comm::WORLD, before, Language::C)
            .unwrap_err()
            .class(),
        ErrorClass::Comm
    );
}

/// The fast create the C shells try first makes nothing after finalize either (it does not
/// look at `finalized`: the finalized registry has no slot to give), so the whole way says
/// why.
#[test]
fn the_fast_create_makes_nothing_after_finalize() {
    let u = Universe::new(ThreadLevel::Single);
    let spec = || spec(ObjectKind::Comm, CopyAction::Null, DeleteAction::Null);
    u.create_keyval(spec()).unwrap(); // the whole way, which makes slots ahead
    let before = u.create_keyval_fast(ObjectKind::Comm, Language::C, false);
    assert!(before.is_some(), "the fast create works before");
    u.finalize().unwrap();
    for dup in [false, true] {
        assert_eq!(
            u.create_keyval_fast(ObjectKind::Comm, Language::C, dup),
            None
        );
    }
    assert_eq!(u.create_keyval(spec()).unwrap_err(), Error::Finalized);
}

#[test]
fn the_first_delete_try_takes_its_cases_and_leaves_the_rest_untouched() {
    // `delete_attr_first`, which the C shells try before anything else: the first value of a
    // small set, a hashed set's value in its home slot, nothing to delete; every other case
    // answers "search" (`Some(false)`) having changed nothing, and a freed keyval's value is
    // one of them (its release may take the keyval).
    let u = Universe::new(ThreadLevel::Single);
    let comm = u.comm_dup(Comm::WORLD).unwrap();
    let kvs: Vec<Keyval> = (0..40)
        .map(|_| keyval(&u, ObjectKind::Comm, CopyAction::Null, DeleteAction::Null))
        .collect();
    assert_eq!(
        u.delete_attr_first(comm, kvs[0]),
        Some(true),
        "nothing to delete"
    );
    for (k, kv) in kvs[..3].iter().enumerate() {
        u.set_attr(comm, *kv, Language::C, k as Word + 1).unwrap();
    }
    assert_eq!(
        u.delete_attr_first(comm, kvs[1]),
        Some(false),
        "not the first"
    );
    assert_eq!(u.get_attr(comm, kvs[1], Language::C), Ok(Some(2)));
    assert_eq!(u.delete_attr_first(comm, kvs[0]), Some(true), "the first");
    assert_eq!(u.get_attr(comm, kvs[0], Language::C), Ok(None));
    assert_eq!(u.get_attr(comm, kvs[1], Language::C), Ok(Some(2)));
    assert_eq!(u.get_attr(comm, kvs[2], Language::C), Ok(Some(3)));
    // A hashed set: each value is deleted by the first try or found by the search.
    for (k, kv) in kvs.iter().enumerate() {
        u.set_attr(comm, *kv, Language::C, k as Word + 1).unwrap();
    }
    let (mut first, mut searched) = (0, 0);
    for (k, kv) in kvs.iter().enumerate() {
        match u.delete_attr_first(comm, *kv) {
            Some(true) => first += 1,
            Some(false) => {
                assert_eq!(u.get_attr(comm, *kv, Language::C), Ok(Some(k as Word + 1)));
                assert_eq!(u.delete_attr_fast(comm, *kv), Some(()));
                searched += 1;
            }
            None => panic!("no callback, no cell: never the whole way"),
        }
        assert_eq!(u.get_attr(comm, *kv, Language::C), Ok(None));
        for (j, other) in kvs.iter().enumerate().skip(k + 1) {
            assert_eq!(
                u.get_attr(comm, *other, Language::C),
                Ok(Some(j as Word + 1))
            );
        }
    }
    assert!(
        first > 0,
        "home slots: {first} of {}, {searched} searched",
        kvs.len()
    );
    // A value whose keyval was freed: searched for, and its deletion frees the keyval.
    u.set_attr(comm, kvs[0], Language::C, 5).unwrap();
    u.free_keyval(ObjectKind::Comm, kvs[0]).unwrap();
    assert_eq!(u.delete_attr_first(comm, kvs[0]), Some(false));
    assert_eq!(u.get_attr(comm, kvs[0], Language::C), Ok(Some(5)));
    assert_eq!(u.delete_attr_fast(comm, kvs[0]), Some(()));
    assert_eq!(
        u.get_attr(comm, kvs[0], Language::C),
        Err(Error::InvalidKeyval)
    );
    // A keyval once held frees the whole way, and goes.
    u.free_keyval(ObjectKind::Comm, kvs[1]).unwrap();
    assert_eq!(
        u.get_attr(comm, kvs[1], Language::C),
        Err(Error::InvalidKeyval)
    );
}

#[test]
fn fast_delete_and_set_keep_counts_and_deferred_frees() {
    // The single-threaded fast paths the C shells try first: an object's only value deleted
    // and set again, over and over, then its keyval freed while the value lives.
    let u = Universe::new(ThreadLevel::Single);
    let kv = keyval(&u, ObjectKind::Comm, CopyAction::Null, DeleteAction::Null);
    let other = keyval(&u, ObjectKind::Comm, CopyAction::Null, DeleteAction::Null);
    let comm = u.comm_dup(Comm::WORLD).unwrap();
    for round in 1..=3 {
        assert_eq!(u.set_attr_fast(comm, kv, Language::C, round), Some(()));
        assert_eq!(u.get_attr(comm, kv, Language::C), Ok(Some(round)));
        assert_eq!(u.delete_attr_fast(comm, kv), Some(()));
        assert_eq!(u.get_attr(comm, kv, Language::C), Ok(None));
    }
    assert_eq!(u.delete_attr_fast(comm, kv), Some(()), "nothing to delete");
    assert_eq!(u.set_attr_fast(comm, kv, Language::C, 7), Some(()));
    assert_eq!(u.set_attr_fast(comm, other, Language::C, 8), Some(()));
    u.free_keyval(ObjectKind::Comm, kv).unwrap();
    assert_eq!(
        u.get_attr(comm, kv, Language::C),
        Ok(Some(7)),
        "held by its value"
    );
    assert_eq!(
        u.set_attr_fast(comm, kv, Language::C, 9),
        None,
        "freed: the full call"
    );
    assert_eq!(u.delete_attr_fast(comm, kv), Some(()));
    assert_eq!(
        u.get_attr(comm, kv, Language::C),
        Err(Error::InvalidKeyval),
        "its last value went, and the freed keyval with it"
    );
    assert_eq!(u.get_attr(comm, other, Language::C), Ok(Some(8)));
    assert_eq!(u.delete_attr_fast(comm, other), Some(()));
    assert_eq!(
        u.get_attr(comm, other, Language::C),
        Ok(None),
        "a live keyval stays"
    );
}

#[test]
fn user_error_handlers_count_handles_check_kinds_and_outlive_their_handles() {
    let u = universe();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = calls.clone();
    let function: Arc<dyn ErrhandlerFunction> =
        Arc::new(move |object: ErrhandlerObject, code: &mut i32| {
            seen.lock().unwrap().push((object, *code));
        });
    let comm_handler = u
        .errhandler_create(ErrhandlerKind::Comm, function.clone())
        .unwrap();
    let win_handler = u.errhandler_create(ErrhandlerKind::Win, function).unwrap();
    let dup = u.comm_dup(Comm::WORLD).unwrap();
    let win = u.win_create_dynamic(Comm::WORLD).unwrap();
    // Wrong kind: MPI_ERR_ARG, nothing changed.
    let wrong = u.set_errhandler(win, comm_handler).unwrap_err();
    assert_eq!(wrong.class(), ErrorClass::Arg);
    assert_eq!(u.errhandler(win).unwrap(), ErrorHandler::Fatal);
    assert_eq!(
        u.set_errhandler(dup, win_handler).unwrap_err().class(),
        ErrorClass::Arg
    );
    // Set, then release the only handle: the communicator keeps it, and a duplicate inherits it.
    u.set_errhandler(dup, comm_handler).unwrap();
    u.errhandler_free(comm_handler).unwrap();
    assert_eq!(
        u.errhandler_free(comm_handler).unwrap_err().class(),
        ErrorClass::Errhandler
    );
    assert_eq!(
        u.set_errhandler(Comm::SELF, comm_handler)
            .unwrap_err()
            .class(),
        ErrorClass::Errhandler
    );
    let inherited = u.comm_dup(dup).unwrap();
    assert_eq!(u.errhandler(inherited).unwrap(), comm_handler);
    let function = u.errhandler_function(comm_handler).unwrap().unwrap();
    function.call(ErrhandlerObject::Comm(inherited), &mut 5);
    assert_eq!(
        *calls.lock().unwrap(),
        [(ErrhandlerObject::Comm(inherited), 5)]
    );
    // A get hands out a new handle, which can be set again and released.
    u.errhandler_acquire(comm_handler).unwrap();
    u.set_errhandler(Comm::SELF, comm_handler).unwrap();
    u.errhandler_free(comm_handler).unwrap();
    assert_eq!(
        u.errhandler_kind(comm_handler).unwrap(),
        Some(ErrhandlerKind::Comm)
    );
    // Predefined handlers need no handle.
    u.errhandler_free(ErrorHandler::Return).unwrap();
    assert!(u
        .errhandler_function(ErrorHandler::Return)
        .unwrap()
        .is_none());
}

#[test]
fn a_table_slot_stays_small() {
    // A datatype without attributes is its slot plus its type map: a duplicate's levels of
    // MPI_Type_dup fit in the slot's padding.
    assert!(std::mem::size_of::<super::ObjectData>() <= 120);
    assert!(std::mem::size_of::<super::Detail>() <= 64);
}
