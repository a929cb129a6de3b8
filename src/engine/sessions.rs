//! Sessions (MPI-4.1 §12.3): MPI_Session_init and MPI_Session_finalize, the process sets a
//! session sees ("mpi://WORLD" and "mpi://SELF", both the one process), groups made from
//! them, and the session's info and error handler.

use super::error::{Error, Result};
use super::groups::{Group, GroupData};
use super::info::{Info, InfoData};
use super::table::Id;
use super::{ErrorHandler, Universe};

/// The process sets every session sees, in the order MPI_Session_get_nth_pset numbers them.
pub const PSETS: [&str; 2] = ["mpi://WORLD", "mpi://SELF"];

/// A session handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Session(pub Id);

/// What a session keeps: the hints it was started with and its error handler.
#[derive(Clone, Debug)]
pub struct SessionData {
    info: InfoData,
    errhandler: ErrorHandler,
}

/// The process set named `name`. MPI-4.1 §12.3.2 gives process set names the form of URIs,
/// whose scheme and authority ("mpi" and "WORLD" in "mpi://WORLD") are case-insensitive
/// (RFC 3986 §3.1, §3.2.2): "mpi://self" names `mpi://SELF`, as MPICH also accepts.
pub(crate) fn pset(name: &[u8]) -> Result<&'static str> {
    PSETS
        .iter()
        .copied()
        .find(|p| p.as_bytes().eq_ignore_ascii_case(name))
        .ok_or(Error::UnknownPset)
}

impl Universe {
    fn session_data(&self, session: Session) -> Result<SessionData> {
        self.lock()?
            .sessions
            .get(session.0)
            .cloned()
            .ok_or(Error::InvalidSession)
    }

    /// MPI_Session_init: a session with a copy of `info`'s pairs (`None` for
    /// MPI_INFO_NULL) as its hints, and `errhandler` as its error handler.
    pub fn session_init(&self, info: Option<Info>, errhandler: ErrorHandler) -> Result<Session> {
        let hints = match info {
            Some(info) => self.with_info(info, |data| Ok(data.clone()))?,
            None => InfoData::new(),
        };
        let mut state = self.lock()?;
        if let ErrorHandler::User(id) = errhandler {
            state.check_errhandler(id, super::ErrhandlerKind::Session)?;
        }
        // A session may start after MPI_Finalize: objects can be made again.
        state.reopen();
        state
            .sessions
            .insert(SessionData {
                info: hints,
                errhandler,
            })
            .map(Session)
            .ok_or(Error::TooManyObjects("session"))
    }

    /// MPI_Session_finalize: ends the session. Objects made from it (groups, communicators)
    /// are the user's to free; the standard makes freeing them first the program's duty and
    /// we do not track where objects came from, so they stay usable.
    pub fn session_finalize(&self, session: Session) -> Result<()> {
        self.lock()?
            .sessions
            .remove(session.0)
            .map(|_| ())
            .ok_or(Error::InvalidSession)
    }

    /// MPI_Session_get_num_psets: 2 ("mpi://WORLD" and "mpi://SELF").
    pub fn session_num_psets(&self, session: Session) -> Result<usize> {
        self.session_data(session)?;
        Ok(PSETS.len())
    }

    /// MPI_Session_get_nth_pset: the name of set `n` (0-based); `n` outside is MPI_ERR_ARG.
    /// The shell applies the same buffer protocol as MPI_Info_get_string.
    pub fn session_nth_pset(&self, session: Session, n: i32) -> Result<&'static str> {
        self.session_data(session)?;
        usize::try_from(n)
            .ok()
            .and_then(|n| PSETS.get(n).copied())
            .ok_or(Error::InvalidArgument("no process set of that number"))
    }

    /// MPI_Session_get_pset_info: a new info object with the set's `mpi_size` ("1").
    pub fn session_pset_info(&self, session: Session, name: &[u8]) -> Result<Info> {
        self.session_data(session)?;
        pset(name)?;
        let info = self.info_create()?;
        self.info_set(info, b"mpi_size", b"1")?;
        Ok(info)
    }

    /// MPI_Group_from_session_pset: a new group of the set's processes (the one process).
    pub fn group_from_session_pset(&self, session: Session, name: &[u8]) -> Result<Group> {
        self.session_data(session)?;
        pset(name)?;
        let data = GroupData::from_processes(vec![0]).expect("one process");
        let mut state = self.lock()?;
        state
            .groups
            .insert(data)
            .map(Group)
            .ok_or(Error::TooManyObjects("group"))
    }

    /// MPI_Session_get_info: a new info object with the session's hints.
    pub fn session_get_info(&self, session: Session) -> Result<Info> {
        let data = self.session_data(session)?;
        let info = self.info_create()?;
        for (key, value) in data.info.pairs() {
            self.info_set(info, key, value)?;
        }
        Ok(info)
    }

    /// MPI_Session_get_errhandler.
    pub fn session_errhandler(&self, session: Session) -> Result<ErrorHandler> {
        Ok(self.session_data(session)?.errhandler)
    }

    /// MPI_Session_set_errhandler.
    pub fn session_set_errhandler(&self, session: Session, handler: ErrorHandler) -> Result<()> {
        let mut state = self.lock()?;
        state.sessions.get(session.0).ok_or(Error::InvalidSession)?;
        if let ErrorHandler::User(id) = handler {
            state.check_errhandler(id, super::ErrhandlerKind::Session)?;
        }
        state
            .sessions
            .get_mut(session.0)
            .ok_or(Error::InvalidSession)?
            .errhandler = handler;
        Ok(())
    }

    /// How many sessions are open.
    pub fn session_count(&self) -> Result<usize> {
        Ok(self.lock()?.sessions.len())
    }
}
