//! The Universe side of groups, info objects and user error classes.

use mpiattr::{
    Comm, Comparison, Error, ErrorClass, Group, Info, InfoString, Keyval, Language, ThreadLevel,
    Universe, MAX_STRINGTAG_LEN,
};

const PROC_NULL: i32 = -3;
const UNDEFINED: i32 = -32766;

#[test]
fn comm_group_and_group_operations() -> Result<(), Error> {
    let u = Universe::new(ThreadLevel::Single);
    let world = u.comm_group(Comm::WORLD)?;
    assert_eq!(u.group_size(world)?, 1);
    assert_eq!(u.group_rank(world)?, 0);
    assert_eq!(u.group_size(Group::EMPTY)?, 0);
    assert_eq!(u.group_rank(Group::EMPTY)?, UNDEFINED);
    let self_group = u.comm_group(Comm::SELF)?;
    assert_eq!(u.group_compare(world, self_group)?, Comparison::Ident);
    assert_eq!(u.group_compare(world, Group::EMPTY)?, Comparison::Unequal);
    assert_eq!(
        u.group_translate_ranks(world, &[0, PROC_NULL], Group::EMPTY)?,
        vec![UNDEFINED, PROC_NULL]
    );
    let union = u.group_union(world, Group::EMPTY)?;
    let inter = u.group_intersection(world, Group::EMPTY)?;
    let diff = u.group_difference(world, world)?;
    let incl = u.group_incl(world, &[0])?;
    let excl = u.group_excl(world, &[0])?;
    let range = u.group_range_incl(world, &[[0, 0, 1]])?;
    assert_eq!(u.group_members(union)?, vec![0]);
    assert_eq!(u.group_members(inter)?, Vec::<u32>::new());
    assert_eq!(u.group_members(diff)?, Vec::<u32>::new());
    assert_eq!(u.group_members(incl)?, vec![0]);
    assert_eq!(u.group_members(excl)?, Vec::<u32>::new());
    assert_eq!(u.group_members(range)?, vec![0]);
    assert_eq!(
        u.group_incl(world, &[1]).unwrap_err().class(),
        ErrorClass::Rank
    );
    assert_eq!(
        u.group_range_excl(world, &[[0, 0, 0]]).unwrap_err().class(),
        ErrorClass::Arg
    );
    assert_eq!(u.group_count()?, 9);
    for g in [world, self_group, union, inter, diff, incl, excl, range] {
        u.group_free(g)?;
    }
    assert_eq!(u.group_count()?, 1);
    // A freed group is refused, and MPI_GROUP_EMPTY can be "freed" any number of times.
    assert_eq!(u.group_size(world).unwrap_err().class(), ErrorClass::Group);
    assert_eq!(u.group_free(world).unwrap_err().class(), ErrorClass::Group);
    u.group_free(Group::EMPTY)?;
    u.group_free(Group::EMPTY)?;
    assert_eq!(u.group_size(Group::EMPTY)?, 0);
    Ok(())
}

#[test]
fn no_intercommunicators() -> Result<(), Error> {
    let u = Universe::new(ThreadLevel::Single);
    assert!(!u.comm_test_inter(Comm::WORLD)?);
    assert_eq!(u.comm_get_parent()?, None);
    assert_eq!(
        u.comm_remote_size(Comm::WORLD).unwrap_err().class(),
        ErrorClass::Comm
    );
    assert_eq!(
        u.comm_remote_group(Comm::SELF).unwrap_err().class(),
        ErrorClass::Comm
    );
    let dup = u.comm_dup(Comm::WORLD)?;
    u.comm_free(dup)?;
    assert_eq!(
        u.comm_test_inter(dup).unwrap_err().class(),
        ErrorClass::Comm
    );
    assert_eq!(u.comm_group(dup).unwrap_err().class(), ErrorClass::Comm);
    Ok(())
}

#[test]
fn info_objects() -> Result<(), Error> {
    let u = Universe::new(ThreadLevel::Single);
    let info = u.info_create()?;
    u.info_set(info, b"mpi_assert_no_any_tag", b"true")?;
    u.info_set(info, b"cb_nodes", b"4")?;
    let copy = u.info_dup(info)?;
    u.info_delete(info, b"cb_nodes")?;
    assert_eq!(u.info_get_nkeys(info)?, 1);
    assert_eq!(u.info_get_nkeys(copy)?, 2);
    assert_eq!(u.info_get_nthkey(copy, 1)?, b"cb_nodes");
    assert_eq!(
        u.info_get_string(copy, b"cb_nodes", 8)?,
        InfoString::Found {
            bytes: b"4".to_vec(),
            needed: 2
        }
    );
    assert_eq!(u.info_get(copy, b"nothing", 10)?, None);
    assert_eq!(
        u.info_get_valuelen(info, b"mpi_assert_no_any_tag")?,
        Some(4)
    );
    assert_eq!(
        u.info_delete(info, b"cb_nodes").unwrap_err().class(),
        ErrorClass::InfoNokey
    );
    u.info_free(info)?;
    assert_eq!(
        u.info_get_nkeys(info).unwrap_err().class(),
        ErrorClass::Info
    );
    assert_eq!(u.info_free(info).unwrap_err().class(), ErrorClass::Info);
    u.info_free(copy)?;
    assert_eq!(u.info_count()?, 1);
    Ok(())
}

#[test]
fn info_env() -> Result<(), Error> {
    let u = Universe::new(ThreadLevel::Multiple);
    u.info_env_thread_level("MPI_THREAD_MULTIPLE")?;
    assert_eq!(u.info_get(Info::ENV, b"maxprocs", 10)?, Some(b"1".to_vec()));
    assert_eq!(
        u.info_get(Info::ENV, b"thread_level", 100)?,
        Some(b"MPI_THREAD_MULTIPLE".to_vec())
    );
    assert!(u.info_get(Info::ENV, b"command", 1023)?.is_some());
    let env = u.info_create_env()?;
    assert_eq!(u.info_get_nkeys(env)?, u.info_get_nkeys(Info::ENV)?);
    u.info_set(env, b"soft", b"2")?;
    assert_eq!(u.info_get(Info::ENV, b"soft", 10)?, Some(b"1".to_vec()));
    assert_eq!(
        u.info_set(Info::ENV, b"soft", b"2").unwrap_err().class(),
        ErrorClass::Info
    );
    assert_eq!(
        u.info_free(Info::ENV).unwrap_err().class(),
        ErrorClass::Info
    );
    u.info_free(env)?;
    Ok(())
}

#[test]
fn user_error_classes_and_lastusedcode() -> Result<(), Error> {
    let u = Universe::new(ThreadLevel::Single);
    let last =
        |u: &Universe| u.get_attr(Comm::WORLD, Keyval::LASTUSEDCODE, Language::FortranInteger);
    assert_eq!(last(&u)?, Some(0x3fff));
    let class = u.add_error_class()?;
    let code = u.add_error_code(class)?;
    assert_eq!((class, code), (0x4000, 0x4001));
    assert_eq!(last(&u)?, Some(0x4001));
    assert_eq!(u.error_class(code)?, class);
    assert_eq!(u.error_string(code)?, b"");
    u.add_error_string(code, b"my failure")?;
    assert_eq!(u.error_string(code)?, b"my failure");
    assert_eq!(
        u.error_string(36)?,
        b"MPI_ERR_KEYVAL: invalid attribute keyval"
    );
    assert_eq!(u.error_class(0x5000).unwrap_err().class(), ErrorClass::Arg);
    assert_eq!(u.error_string(0x5000).unwrap_err().class(), ErrorClass::Arg);
    assert_eq!(
        u.add_error_string(13, b"no").unwrap_err().class(),
        ErrorClass::Arg
    );
    u.remove_error_string(code)?;
    u.remove_error_code(code)?;
    u.remove_error_class(class)?;
    // Values are not reused, so MPI_LASTUSEDCODE does not go down.
    assert_eq!(last(&u)?, Some(0x4001));
    assert_eq!(u.add_error_class()?, 0x4002);
    assert_eq!(last(&u)?, Some(0x4002));
    Ok(())
}

#[test]
fn communicator_constructors() -> Result<(), Error> {
    use mpiattr::{ErrorHandler, KeyvalSpec, ObjectKind, SplitType};
    let u = Universe::new(ThreadLevel::Single);
    let parent = u.comm_dup(Comm::WORLD)?;
    u.set_errhandler(parent, ErrorHandler::Return)?;
    let keyval = u.create_keyval(KeyvalSpec {
        kind: ObjectKind::Comm,
        language: Language::C,
        copy: mpiattr::CopyAction::Dup,
        delete: mpiattr::DeleteAction::Null,
    })?;
    u.set_attr(parent, keyval, Language::C, 5)?;
    u.set_comm_name(parent, b"parent")?;
    let group = u.comm_group(parent)?;
    let made = [
        u.comm_create(parent, group)?.unwrap(),
        u.comm_create_group(parent, group, 7)?.unwrap(),
        u.comm_split_color(parent, Some(3), 9)?.unwrap(),
        u.comm_split_type(parent, Some(SplitType::Shared), None)?
            .unwrap(),
        u.comm_split_type(
            parent,
            Some(SplitType::HwGuided),
            Some(b"mpi_shared_memory"),
        )?
        .unwrap(),
    ];
    for comm in made {
        // No attributes, no name, the parent's error handler.
        assert_eq!(u.get_attr(comm, keyval, Language::C)?, None);
        assert_eq!(u.comm_name(comm)?, b"");
        assert_eq!(u.errhandler(comm)?, ErrorHandler::Return);
        u.comm_free(comm)?;
    }
    assert_eq!(u.comm_create(parent, Group::EMPTY)?, None);
    assert_eq!(u.comm_split_color(parent, None, 0)?, None);
    assert_eq!(
        u.comm_split_color(parent, Some(-1), 0).unwrap_err().class(),
        ErrorClass::Arg
    );
    assert_eq!(
        u.comm_create_group(parent, group, -1).unwrap_err().class(),
        ErrorClass::Tag
    );
    assert_eq!(u.comm_split_type(parent, None, None)?, None);
    assert_eq!(
        u.comm_split_type(parent, Some(SplitType::HwUnguided), None)?,
        None
    );
    assert_eq!(
        u.comm_split_type(parent, Some(SplitType::HwGuided), Some(b"nonsense"))?,
        None
    );
    let from_group = u.comm_create_from_group(group, b"org.example.lib", ErrorHandler::Fatal)?;
    assert_eq!(u.errhandler(from_group)?, ErrorHandler::Fatal);
    assert_eq!(u.get_attr(from_group, keyval, Language::C)?, None);
    u.comm_free(from_group)?;
    assert_eq!(
        u.comm_create_from_group(Group::EMPTY, b"t", ErrorHandler::Return)
            .unwrap_err()
            .class(),
        ErrorClass::Group
    );
    assert_eq!(
        u.comm_create_from_group(group, &[b't'; MAX_STRINGTAG_LEN], ErrorHandler::Return)
            .unwrap_err()
            .class(),
        ErrorClass::Arg
    );
    u.group_free(group)?;
    // A freed group and a freed communicator are refused.
    assert_eq!(
        u.comm_create(parent, group).unwrap_err().class(),
        ErrorClass::Group
    );
    u.comm_free(parent)?;
    assert_eq!(
        u.comm_split_type(parent, Some(SplitType::Shared), None)
            .unwrap_err()
            .class(),
        ErrorClass::Comm
    );
    Ok(())
}

#[test]
fn sessions() -> Result<(), Error> {
    use mpiattr::ErrorHandler;
    let u = Universe::new(ThreadLevel::Single);
    let hints = u.info_create()?;
    u.info_set(hints, b"mpi_thread_support_level", b"MPI_THREAD_SINGLE")?;
    let session = u.session_init(Some(hints), ErrorHandler::Return)?;
    u.info_free(hints)?;
    assert_eq!(u.session_num_psets(session)?, 2);
    assert_eq!(u.session_nth_pset(session, 0)?, "mpi://WORLD");
    assert_eq!(u.session_nth_pset(session, 1)?, "mpi://SELF");
    assert_eq!(
        u.session_nth_pset(session, 2).unwrap_err().class(),
        ErrorClass::Arg
    );
    let pset_info = u.session_pset_info(session, b"mpi://SELF")?;
    assert_eq!(u.info_get(pset_info, b"mpi_size", 10)?, Some(b"1".to_vec()));
    u.info_free(pset_info)?;
    assert_eq!(
        u.session_pset_info(session, b"mpi://NOWHERE")
            .unwrap_err()
            .class(),
        ErrorClass::Arg
    );
    let group = u.group_from_session_pset(session, b"mpi://WORLD")?;
    assert_eq!(u.group_members(group)?, vec![0]);
    let comm = u.comm_create_from_group(group, b"tag", ErrorHandler::Return)?;
    assert_eq!(u.group_rank(group)?, 0);
    // The session's info is a new object holding the hints it was started with.
    let info = u.session_get_info(session)?;
    assert_eq!(
        u.info_get(info, b"mpi_thread_support_level", 100)?,
        Some(b"MPI_THREAD_SINGLE".to_vec())
    );
    u.info_free(info)?;
    assert_eq!(u.session_errhandler(session)?, ErrorHandler::Return);
    u.session_set_errhandler(session, ErrorHandler::Fatal)?;
    assert_eq!(u.session_errhandler(session)?, ErrorHandler::Fatal);
    u.session_finalize(session)?;
    assert_eq!(
        u.session_num_psets(session).unwrap_err().class(),
        ErrorClass::Session
    );
    assert_eq!(
        u.session_finalize(session).unwrap_err().class(),
        ErrorClass::Session
    );
    // What was made from the session is the user's and still usable.
    assert_eq!(u.group_size(group)?, 1);
    u.comm_free(comm)?;
    u.group_free(group)?;
    assert_eq!(u.session_count()?, 0);
    Ok(())
}

#[test]
fn communicator_hints() -> Result<(), Error> {
    let u = Universe::new(ThreadLevel::Single);
    let info = u.info_create()?;
    u.info_set(info, b"mpi_assert_no_any_tag", b"true")?;
    u.info_set(info, b"mpi_assert_exact_length", b"maybe")?;
    u.info_set(info, b"vendor_hint", b"7")?;
    let comm = u.comm_dup(Comm::WORLD)?;
    u.comm_set_info(comm, info)?;
    let got = u.comm_get_info(comm)?;
    assert_ne!(got, info, "a new object");
    assert_eq!(
        u.info_get_nkeys(got)?,
        1,
        "unknown keys and bad values are dropped"
    );
    assert_eq!(u.info_get_nthkey(got, 0)?, b"mpi_assert_no_any_tag");
    u.info_free(got)?;
    // MPI_Comm_dup keeps the parent's hints; MPI_Comm_dup_with_info takes the info's.
    let dup = u.comm_dup(comm)?;
    let got = u.comm_get_info(dup)?;
    assert_eq!(u.info_get_nkeys(got)?, 1);
    u.info_free(got)?;
    let empty = u.info_create()?;
    let with_info = u.comm_dup_with_info(comm, empty)?;
    let got = u.comm_get_info(with_info)?;
    assert_eq!(u.info_get_nkeys(got)?, 0);
    u.info_free(got)?;
    // Split communicators start without hints.
    let split = u.comm_split_color(comm, Some(0), 0)?.unwrap();
    let got = u.comm_get_info(split)?;
    assert_eq!(u.info_get_nkeys(got)?, 0);
    u.info_free(got)?;
    u.info_free(empty)?;
    assert_eq!(
        u.comm_dup_with_info(comm, empty).unwrap_err().class(),
        ErrorClass::Info
    );
    for c in [split, with_info, dup, comm] {
        u.comm_free(c)?;
    }
    assert_eq!(u.comm_get_info(comm).unwrap_err().class(), ErrorClass::Comm);
    assert_eq!(
        u.comm_set_info(comm, info).unwrap_err().class(),
        ErrorClass::Comm
    );
    u.info_free(info)?;
    assert_eq!(u.info_count()?, 1);
    Ok(())
}
