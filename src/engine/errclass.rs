//! User error classes, codes and strings (MPI-4.1 §9.5): MPI_Add_error_class,
//! MPI_Add_error_code, MPI_Add_error_string, and MPI-4.1's MPI_Remove_error_class,
//! MPI_Remove_error_code and MPI_Remove_error_string, with what MPI_Error_class and
//! MPI_Error_string report for the values they make.

use std::collections::BTreeMap;

use super::error::{Error, ErrorClass, Result};

/// MPI_ERR_LASTCODE: the predefined codes are 0 to this; user values come after it.
pub const LAST_PREDEFINED_CODE: i32 = crate::abi::MPI_ERR_LASTCODE as i32;
/// MPI_MAX_ERROR_STRING: an error string has fewer characters than this.
pub const MAX_ERROR_STRING: usize = crate::abi::MPI_MAX_ERROR_STRING as usize;

/// What a user value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UserValue {
    /// A class made by MPI_Add_error_class.
    Class,
    /// A code made by MPI_Add_error_code, of this class (predefined or user).
    Code(i32),
}

/// The user error classes and codes, and the strings of user values.
///
/// Every value is handed out once: after MPI_ERR_LASTCODE, in increasing order, never
/// reused after a removal, so that MPI_LASTUSEDCODE never decreases and an old value never
/// comes to mean a new error.
#[derive(Clone, Debug, Default)]
pub struct UserErrors {
    values: BTreeMap<i32, UserValue>,
    strings: BTreeMap<i32, Vec<u8>>,
    /// The largest value handed out, or MPI_ERR_LASTCODE before any.
    last_used: Option<i32>,
}

impl UserErrors {
    /// No user values yet.
    pub fn new() -> UserErrors {
        UserErrors::default()
    }

    /// The value of the MPI_LASTUSEDCODE attribute: the largest value handed out so far,
    /// MPI_ERR_LASTCODE before any.
    pub fn last_used(&self) -> i32 {
        self.last_used.unwrap_or(LAST_PREDEFINED_CODE)
    }

    fn next(&mut self, value: UserValue) -> Result<i32> {
        let next = self
            .last_used()
            .checked_add(1)
            .ok_or(Error::InvalidArgument("no error values are left"))?;
        self.values.insert(next, value);
        self.last_used = Some(next);
        Ok(next)
    }

    /// Whether `class` is a class: predefined or a live user class.
    fn is_class(&self, class: i32) -> bool {
        ErrorClass::from_code(class).is_some() || self.values.get(&class) == Some(&UserValue::Class)
    }

    /// MPI_Add_error_class.
    pub fn add_class(&mut self) -> Result<i32> {
        self.next(UserValue::Class)
    }

    /// MPI_Add_error_code: a new code of `class`, a predefined class other than
    /// MPI_SUCCESS or a user class (MPI_ERR_ARG otherwise).
    pub fn add_code(&mut self, class: i32) -> Result<i32> {
        if class == ErrorClass::Success as i32 || !self.is_class(class) {
            return Err(Error::InvalidArgument("not an error class"));
        }
        self.next(UserValue::Code(class))
    }

    /// MPI_Add_error_string: sets or replaces the string of a user class or code. A
    /// predefined or unknown value, or a string of MPI_MAX_ERROR_STRING characters or more,
    /// is MPI_ERR_ARG.
    pub fn add_string(&mut self, code: i32, string: &[u8]) -> Result<()> {
        if !self.values.contains_key(&code) {
            return Err(Error::InvalidArgument(
                "not a user error class or code: only those take strings",
            ));
        }
        if string.len() >= MAX_ERROR_STRING {
            return Err(Error::InvalidArgument(
                "error string of MPI_MAX_ERROR_STRING characters or more",
            ));
        }
        self.strings.insert(code, string.to_vec());
        Ok(())
    }

    /// MPI_Remove_error_class: the class must be a user class with no codes left
    /// (MPI_ERR_ARG otherwise), and its string removed first (the standard makes that the
    /// order; we refuse rather than drop the string).
    pub fn remove_class(&mut self, class: i32) -> Result<()> {
        if self.values.get(&class) != Some(&UserValue::Class) {
            return Err(Error::InvalidArgument("not a user error class"));
        }
        if self.values.values().any(|v| *v == UserValue::Code(class)) {
            return Err(Error::InvalidArgument("the error class still has codes"));
        }
        if self.strings.contains_key(&class) {
            return Err(Error::InvalidArgument(
                "the error class's string must be removed first",
            ));
        }
        self.values.remove(&class);
        Ok(())
    }

    /// MPI_Remove_error_code: the code must be a user code whose string was removed first
    /// (MPI_ERR_ARG otherwise).
    pub fn remove_code(&mut self, code: i32) -> Result<()> {
        if !matches!(self.values.get(&code), Some(UserValue::Code(_))) {
            return Err(Error::InvalidArgument("not a user error code"));
        }
        if self.strings.contains_key(&code) {
            return Err(Error::InvalidArgument(
                "the error code's string must be removed first",
            ));
        }
        self.values.remove(&code);
        Ok(())
    }

    /// MPI_Remove_error_string: the value must have a string added by
    /// MPI_Add_error_string (MPI_ERR_ARG otherwise).
    pub fn remove_string(&mut self, code: i32) -> Result<()> {
        self.strings
            .remove(&code)
            .map(|_| ())
            .ok_or(Error::InvalidArgument(
                "no error string was added for the value",
            ))
    }

    /// MPI_Error_class: a predefined class is its own class, a user class too, a user code
    /// has the class it was made with; anything else is MPI_ERR_ARG.
    pub fn class_of(&self, code: i32) -> Result<i32> {
        if ErrorClass::from_code(code).is_some() {
            return Ok(code);
        }
        match self.values.get(&code) {
            Some(UserValue::Class) => Ok(code),
            Some(UserValue::Code(class)) => Ok(*class),
            None => Err(Error::InvalidErrorCode),
        }
    }

    /// MPI_Error_string of a user value: its string, or the empty string when none was
    /// added; `None` when `code` is not a live user value (predefined values have their
    /// text in [`ErrorClass::description`]).
    pub fn string(&self, code: i32) -> Option<&[u8]> {
        self.values.get(&code)?;
        Some(self.strings.get(&code).map_or(&[][..], |s| &s[..]))
    }
}

// ---- the universe's user errors ----------------------------------------------------------

use super::{Comm, ObjectKind, Universe, Word};

impl Universe {
    /// Runs `change` on the user errors, then sets MPI_COMM_WORLD's MPI_LASTUSEDCODE
    /// attribute to the largest value handed out.
    fn change_user_errors<T>(
        &self,
        change: impl FnOnce(&mut UserErrors) -> Result<T>,
    ) -> Result<T> {
        let mut state = self.lock()?;
        let result = change(&mut state.user_errors)?;
        let last = state.user_errors.last_used() as Word;
        // MPI_COMM_WORLD is not there before MPI_Init nor after MPI_Finalize (the value is
        // set when it comes, see State::open_world).
        if let Some(values) = state
            .object_mut(ObjectKind::Comm, Comm::WORLD.0)
            .ok()
            .and_then(|world| world.predefined_values.as_mut())
        {
            values.set_last_used_code(last);
        }
        Ok(result)
    }

    /// MPI_Add_error_class.
    pub fn add_error_class(&self) -> Result<i32> {
        self.change_user_errors(UserErrors::add_class)
    }

    /// MPI_Add_error_code.
    pub fn add_error_code(&self, class: i32) -> Result<i32> {
        self.change_user_errors(|errors| errors.add_code(class))
    }

    /// MPI_Add_error_string.
    pub fn add_error_string(&self, code: i32, string: &[u8]) -> Result<()> {
        self.change_user_errors(|errors| errors.add_string(code, string))
    }

    /// MPI_Remove_error_class.
    pub fn remove_error_class(&self, class: i32) -> Result<()> {
        self.change_user_errors(|errors| errors.remove_class(class))
    }

    /// MPI_Remove_error_code.
    pub fn remove_error_code(&self, code: i32) -> Result<()> {
        self.change_user_errors(|errors| errors.remove_code(code))
    }

    /// MPI_Remove_error_string.
    pub fn remove_error_string(&self, code: i32) -> Result<()> {
        self.change_user_errors(|errors| errors.remove_string(code))
    }

    /// MPI_Error_class, user values included.
    pub fn error_class(&self, code: i32) -> Result<i32> {
        self.lock()?.user_errors.class_of(code)
    }

    /// MPI_Error_string, user values included: a predefined class's name and description,
    /// a user value's string (empty if none was added); MPI_ERR_ARG for anything else.
    pub fn error_string(&self, code: i32) -> Result<Vec<u8>> {
        if let Some(class) = ErrorClass::from_code(code) {
            return Ok(format!("{}: {}", class.name(), class.description()).into_bytes());
        }
        self.lock()?
            .user_errors
            .string(code)
            .map(<[u8]>::to_vec)
            .ok_or(Error::InvalidErrorCode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_codes_count_up_from_lastcode() {
        let mut errors = UserErrors::new();
        assert_eq!(errors.last_used(), LAST_PREDEFINED_CODE);
        let class = errors.add_class().unwrap();
        assert_eq!(class, LAST_PREDEFINED_CODE + 1);
        let code = errors.add_code(class).unwrap();
        assert_eq!(code, class + 1);
        let arg_code = errors.add_code(ErrorClass::Arg as i32).unwrap();
        assert_eq!(errors.last_used(), class + 2);
        assert_eq!(errors.class_of(class).unwrap(), class);
        assert_eq!(errors.class_of(code).unwrap(), class);
        assert_eq!(errors.class_of(arg_code).unwrap(), ErrorClass::Arg as i32);
        assert_eq!(errors.class_of(ErrorClass::Win as i32).unwrap(), 56);
        assert_eq!(
            errors.class_of(class + 100).unwrap_err(),
            Error::InvalidErrorCode
        );
    }

    #[test]
    fn codes_need_a_class() {
        let mut errors = UserErrors::new();
        let class = errors.add_class().unwrap();
        let code = errors.add_code(class).unwrap();
        for bad in [0, code, class + 50, -1] {
            assert_eq!(
                errors.add_code(bad).unwrap_err().class(),
                ErrorClass::Arg,
                "{bad}"
            );
        }
        assert_eq!(errors.last_used(), code, "refusals use up no value");
    }

    #[test]
    fn strings() {
        let mut errors = UserErrors::new();
        let class = errors.add_class().unwrap();
        let code = errors.add_code(class).unwrap();
        assert_eq!(errors.string(code), Some(&b""[..]));
        errors.add_string(code, b"disk on fire").unwrap();
        errors.add_string(code, b"disk still on fire").unwrap();
        assert_eq!(errors.string(code), Some(&b"disk still on fire"[..]));
        assert_eq!(errors.string(ErrorClass::Arg as i32), None);
        let refusals = [
            errors.add_string(ErrorClass::Arg as i32, b"mine"),
            errors.add_string(code + 1, b"nobody's"),
            errors.add_string(class, &vec![b'x'; MAX_ERROR_STRING]),
        ];
        for refusal in refusals {
            assert_eq!(refusal.unwrap_err().class(), ErrorClass::Arg);
        }
        errors
            .add_string(class, &vec![b'x'; MAX_ERROR_STRING - 1])
            .unwrap();
    }

    #[test]
    fn removal_order_string_code_class() {
        let mut errors = UserErrors::new();
        let class = errors.add_class().unwrap();
        let code = errors.add_code(class).unwrap();
        errors.add_string(code, b"s").unwrap();
        errors.add_string(class, b"c").unwrap();
        assert_eq!(
            errors.remove_class(class).unwrap_err().class(),
            ErrorClass::Arg
        );
        assert_eq!(
            errors.remove_code(code).unwrap_err().class(),
            ErrorClass::Arg
        );
        errors.remove_string(code).unwrap();
        assert_eq!(
            errors.remove_string(code).unwrap_err().class(),
            ErrorClass::Arg
        );
        errors.remove_code(code).unwrap();
        assert_eq!(errors.class_of(code).unwrap_err(), Error::InvalidErrorCode);
        assert_eq!(
            errors.remove_class(class).unwrap_err().class(),
            ErrorClass::Arg
        );
        errors.remove_string(class).unwrap();
        assert_eq!(
            errors.remove_code(class).unwrap_err().class(),
            ErrorClass::Arg
        );
        errors.remove_class(class).unwrap();
        assert_eq!(errors.string(class), None);
        assert_eq!(
            errors
                .remove_class(ErrorClass::Arg as i32)
                .unwrap_err()
                .class(),
            ErrorClass::Arg
        );
        // Removed values are not handed out again.
        assert_eq!(errors.add_class().unwrap(), code + 1);
        assert_eq!(errors.last_used(), code + 1);
    }
}
