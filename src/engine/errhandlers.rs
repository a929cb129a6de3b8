//! User error handlers (MPI-4.1 §9.3): MPI_Comm/Win/Session/File_create_errhandler,
//! MPI_Errhandler_free, and what setting, getting and calling a handler needs.
//!
//! A user handler is a record in a table: its kind (the objects it may be set on), the
//! function, an opaque [`ErrhandlerFunction`] that the C or Fortran shell builds around the
//! program's function pointer, and how many handles the program holds (one from the create
//! call, one more from each get). MPI_Errhandler_free drops one; when none is left the handle
//! is invalid for every call that takes a handler, but the record stays, so that the objects
//! it is set on keep it (MPI-4.1 §9.3.4: freeing marks the handler for deallocation, which
//! waits for the objects that use it). Records are never removed: one is a few words, and a
//! program creates few handlers.

use std::fmt;
use std::sync::Arc;

use super::{Comm, Error, ErrorHandler, Result, Session, Universe, Win};

/// The kind of object a user error handler can be set on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrhandlerKind {
    /// MPI_Comm_create_errhandler.
    Comm,
    /// MPI_Win_create_errhandler.
    Win,
    /// MPI_Session_create_errhandler.
    Session,
    /// MPI_File_create_errhandler (files are not implemented: only MPI_FILE_NULL exists).
    File,
}

/// The object an error is raised on, as a user handler receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrhandlerObject {
    /// A communicator.
    Comm(Comm),
    /// A window.
    Win(Win),
    /// A session.
    Session(Session),
    /// MPI_FILE_NULL.
    FileNull,
}

/// A user error handler's function: called with the object the error was raised on and the
/// error code, with no engine lock held. The shell converts the object to the handle its
/// language passes.
pub trait ErrhandlerFunction: Send + Sync {
    /// Runs the handler.
    fn call(&self, object: ErrhandlerObject, code: &mut i32);
}

impl<F> ErrhandlerFunction for F
where
    F: Fn(ErrhandlerObject, &mut i32) + Send + Sync,
{
    fn call(&self, object: ErrhandlerObject, code: &mut i32) {
        self(object, code)
    }
}

/// A user error handler's record.
#[derive(Clone)]
pub(crate) struct ErrhandlerData {
    kind: ErrhandlerKind,
    function: Arc<dyn ErrhandlerFunction>,
    /// Handles the program holds; 0 once freed.
    handles: usize,
}

impl fmt::Debug for ErrhandlerData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErrhandlerData")
            .field("kind", &self.kind)
            .field("handles", &self.handles)
            .finish_non_exhaustive()
    }
}

impl Universe {
    /// MPI_*_create_errhandler: a user handler of `kind` calling `function`.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use mpiattr::engine::{ErrhandlerKind, ErrhandlerObject};
    /// use mpiattr::{Comm, ErrorClass, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let log = seen.clone();
    /// let handler = universe.errhandler_create(
    ///     ErrhandlerKind::Comm,
    ///     Arc::new(move |object: ErrhandlerObject, code: &mut i32| log.lock().unwrap().push((object, *code))),
    /// )?;
    /// universe.set_errhandler(Comm::WORLD, handler)?;
    /// universe.errhandler_free(handler)?; // still set on MPI_COMM_WORLD
    /// let function = universe.errhandler_function(universe.errhandler(Comm::WORLD)?)?.unwrap();
    /// function.call(ErrhandlerObject::Comm(Comm::WORLD), &mut 13);
    /// assert_eq!(*seen.lock().unwrap(), [(ErrhandlerObject::Comm(Comm::WORLD), 13)]);
    /// // The freed handle itself is invalid.
    /// let refused = universe.set_errhandler(Comm::SELF, handler).unwrap_err();
    /// assert_eq!(refused.class(), ErrorClass::Errhandler);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn errhandler_create(
        &self,
        kind: ErrhandlerKind,
        function: Arc<dyn ErrhandlerFunction>,
    ) -> Result<ErrorHandler> {
        let mut state = self.lock()?;
        // Session handlers can be made at any time, after MPI_Finalize too (MPI-4.1 §12.4.1).
        if kind != ErrhandlerKind::Session {
            state.check_live()?;
        }
        state
            .errhandlers
            .insert(ErrhandlerData {
                kind,
                function,
                handles: 1,
            })
            .map(ErrorHandler::User)
            .ok_or(Error::TooManyObjects("error handler"))
    }

    /// MPI_Errhandler_free: releases one handle of a user handler (a predefined one needs
    /// nothing). A handle already released is [`Error::InvalidErrhandler`].
    pub fn errhandler_free(&self, handler: ErrorHandler) -> Result<()> {
        let ErrorHandler::User(id) = handler else {
            return Ok(());
        };
        let mut state = self.lock()?;
        match state.errhandlers.get_mut(id) {
            Some(data) if data.handles > 0 => {
                data.handles -= 1;
                Ok(())
            }
            _ => Err(Error::InvalidErrhandler),
        }
    }

    /// Checks that the program may pass `handler` for an object of `kind`: a predefined
    /// handler always, a user one if it holds a handle to it
    /// ([`Error::InvalidErrhandler`]) and it is of that kind ([`Error::InvalidArgument`],
    /// `MPI_ERR_ARG`).
    pub fn errhandler_check(&self, handler: ErrorHandler, kind: ErrhandlerKind) -> Result<()> {
        let ErrorHandler::User(id) = handler else {
            return Ok(());
        };
        self.lock()?.check_errhandler(id, kind)
    }

    /// A new handle to `handler` (what MPI_*_get_errhandler returns): one more to release.
    pub fn errhandler_acquire(&self, handler: ErrorHandler) -> Result<()> {
        let ErrorHandler::User(id) = handler else {
            return Ok(());
        };
        let mut state = self.lock()?;
        let data = state
            .errhandlers
            .get_mut(id)
            .ok_or(Error::InvalidErrhandler)?;
        data.handles += 1;
        Ok(())
    }

    /// The kind of a user handler (`None` for a predefined one).
    pub fn errhandler_kind(&self, handler: ErrorHandler) -> Result<Option<ErrhandlerKind>> {
        let ErrorHandler::User(id) = handler else {
            return Ok(None);
        };
        let state = self.lock()?;
        let data = state.errhandlers.get(id).ok_or(Error::InvalidErrhandler)?;
        Ok(Some(data.kind))
    }

    /// The user handler whose record is at table index `index`, if any (records are never
    /// removed, so an index names one handler for good): how a Fortran integer, which
    /// holds the index, finds its handler.
    pub fn errhandler_at(&self, index: u32) -> Result<Option<ErrorHandler>> {
        Ok(self
            .lock()?
            .errhandlers
            .id_at(index)
            .map(ErrorHandler::User))
    }

    /// The function of a user handler, to run with no lock held (`None` for a predefined
    /// one). Works after the program freed its handles: objects may still use it.
    pub fn errhandler_function(
        &self,
        handler: ErrorHandler,
    ) -> Result<Option<Arc<dyn ErrhandlerFunction>>> {
        let ErrorHandler::User(id) = handler else {
            return Ok(None);
        };
        let state = self.lock()?;
        let data = state.errhandlers.get(id).ok_or(Error::InvalidErrhandler)?;
        Ok(Some(data.function.clone()))
    }
}

impl super::State {
    /// [`Universe::errhandler_check`] under the lock.
    pub(crate) fn check_errhandler(&self, id: super::Id, kind: ErrhandlerKind) -> Result<()> {
        match self.errhandlers.get(id) {
            Some(data) if data.handles > 0 => {
                if data.kind == kind {
                    Ok(())
                } else {
                    Err(Error::InvalidArgument(
                        "the error handler was made for another kind of object",
                    ))
                }
            }
            _ => Err(Error::InvalidErrhandler),
        }
    }
}
