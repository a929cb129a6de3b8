//! Info objects (MPI-4.1 §10): ordered (key, value) string pairs, and the rules on their
//! lengths and on reading a value into a buffer of limited length.

use super::error::{Error, Result};

/// MPI_MAX_INFO_KEY: a key has at most this many characters less one (room for the C NUL).
pub const MAX_INFO_KEY: usize = crate::abi::MPI_MAX_INFO_KEY as usize;
/// MPI_MAX_INFO_VAL: a value has at most this many characters less one.
pub const MAX_INFO_VAL: usize = crate::abi::MPI_MAX_INFO_VAL as usize;

/// What `MPI_Info_get_string` finds for a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoString {
    /// The key has no value: `flag` is false and the buffer length is left as it was.
    Missing,
    /// The key's value. `bytes` is what fits in the buffer (at most `buflen - 1` bytes, a NUL
    /// to follow in C; nothing when `buflen` is 0), and `needed` is the value's length plus
    /// one, which the call returns in `buflen`.
    Found {
        /// The leading bytes of the value that fit.
        bytes: Vec<u8>,
        /// The value's length plus one for the NUL.
        needed: usize,
    },
}

/// The pairs of one info object, in the order their keys were first set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoData {
    pairs: Vec<(Vec<u8>, Vec<u8>)>,
}

/// A key must have 1 to MPI_MAX_INFO_KEY - 1 bytes (MPI_ERR_INFO_KEY). Spaces count: the
/// standard strips leading and trailing spaces of Fortran arguments only, which the Fortran
/// layer does before calling in.
fn check_key(key: &[u8]) -> Result<&[u8]> {
    if key.is_empty() || key.len() >= MAX_INFO_KEY {
        return Err(Error::InfoKey);
    }
    Ok(key)
}

/// A value must have at most MPI_MAX_INFO_VAL - 1 bytes (MPI_ERR_INFO_VALUE). An empty value
/// is allowed: the standard does not forbid one.
fn check_value(value: &[u8]) -> Result<&[u8]> {
    if value.len() >= MAX_INFO_VAL {
        return Err(Error::InfoValue);
    }
    Ok(value)
}

impl InfoData {
    /// An info object with no keys (MPI_Info_create).
    pub fn new() -> InfoData {
        InfoData::default()
    }

    fn position(&self, key: &[u8]) -> Option<usize> {
        self.pairs.iter().position(|(k, _)| k == key)
    }

    /// MPI_Info_set: sets or replaces the value of `key`. A key already set keeps its place
    /// in the order MPI_Info_get_nthkey reports.
    pub fn set(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        let key = check_key(key)?;
        let value = check_value(value)?;
        match self.position(key) {
            Some(index) => self.pairs[index].1 = value.to_vec(),
            None => self.pairs.push((key.to_vec(), value.to_vec())),
        }
        Ok(())
    }

    /// MPI_Info_delete: MPI_ERR_INFO_NOKEY when the key has no value.
    pub fn delete(&mut self, key: &[u8]) -> Result<()> {
        let key = check_key(key)?;
        let index = self.position(key).ok_or(Error::InfoNoKey)?;
        self.pairs.remove(index);
        Ok(())
    }

    /// The whole value of `key`, if it has one.
    pub fn value(&self, key: &[u8]) -> Result<Option<&[u8]>> {
        let key = check_key(key)?;
        Ok(self.position(key).map(|index| &self.pairs[index].1[..]))
    }

    /// MPI_Info_get_string with a buffer of `buflen` bytes (MPI-4.1 §10): see [`InfoString`].
    pub fn get_string(&self, key: &[u8], buflen: usize) -> Result<InfoString> {
        Ok(match self.value(key)? {
            None => InfoString::Missing,
            Some(value) => InfoString::Found {
                bytes: value[..value.len().min(buflen.saturating_sub(1))].to_vec(),
                needed: value.len() + 1,
            },
        })
    }

    /// The deprecated MPI_Info_get: at most `valuelen` bytes of the value (the C buffer has
    /// `valuelen + 1` bytes for the NUL); `None` when the key has no value. A negative
    /// `valuelen` is MPI_ERR_ARG.
    pub fn get(&self, key: &[u8], valuelen: i32) -> Result<Option<Vec<u8>>> {
        let limit =
            usize::try_from(valuelen).map_err(|_| Error::InvalidArgument("valuelen < 0"))?;
        Ok(self
            .value(key)?
            .map(|value| value[..value.len().min(limit)].to_vec()))
    }

    /// The deprecated MPI_Info_get_valuelen: the value's length without the NUL.
    pub fn get_valuelen(&self, key: &[u8]) -> Result<Option<usize>> {
        Ok(self.value(key)?.map(<[u8]>::len))
    }

    /// MPI_Info_get_nkeys.
    pub fn nkeys(&self) -> usize {
        self.pairs.len()
    }

    /// MPI_Info_get_nthkey: keys are numbered from 0 in the order they were first set;
    /// `n` outside 0..nkeys is MPI_ERR_ARG.
    pub fn nthkey(&self, n: i32) -> Result<&[u8]> {
        usize::try_from(n)
            .ok()
            .and_then(|n| self.pairs.get(n))
            .map(|(key, _)| &key[..])
            .ok_or(Error::InfoIndex)
    }

    /// The pairs in order.
    pub fn pairs(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.pairs.iter().map(|(k, v)| (&k[..], &v[..]))
    }

    /// The info object MPI_INFO_ENV and MPI_Info_create_env describe for this library's one
    /// process: `command` (the program's path, when known), `argv` (its arguments after the
    /// command, separated by spaces, when there are any), `maxprocs` "1", `soft` "1",
    /// `host` (the host name, when known), `arch` (the target's `arch-os`), `wdir` (the
    /// working directory, when known), and `thread_level` (the level MPI provides, e.g.
    /// "MPI_THREAD_MULTIPLE"). `file` is never set: no file described the start.
    pub fn environment(
        args: &[Vec<u8>],
        host: Option<&[u8]>,
        wdir: Option<&[u8]>,
        thread_level: &str,
    ) -> InfoData {
        let mut info = InfoData::new();
        // An over-long value (a path of 1024 bytes or more) is left out rather than cut.
        let mut put = |key: &[u8], value: &[u8]| {
            let _ = info.set(key, value);
        };
        if let Some(command) = args.first().filter(|c| !c.is_empty()) {
            put(b"command", command);
        }
        if args.len() > 1 {
            put(b"argv", &args[1..].join(&b' '));
        }
        put(b"maxprocs", b"1");
        put(b"soft", b"1");
        if let Some(host) = host {
            put(b"host", host);
        }
        let arch = format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS);
        put(b"arch", arch.as_bytes());
        if let Some(wdir) = wdir {
            put(b"wdir", wdir);
        }
        put(b"thread_level", thread_level.as_bytes());
        info
    }
}

// ---- info objects ------------------------------------------------------------------------

use super::table::{Id, Table};
use super::Universe;

/// An info handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Info(pub Id);

impl Info {
    /// MPI_INFO_ENV: predefined, read-only here, never freed.
    pub const ENV: Info = Info(super::predefined_id(0));
}

/// The info table of a new universe: MPI_INFO_ENV in slot 0, filled from the process's
/// command line, host name (the HOSTNAME variable, when set), working directory and the
/// thread level MPI provides ([`InfoData::environment`]; the universe's thread level is
/// set as it is made, see [`Universe::info_env_thread_level`]).
pub(super) fn predefined() -> Table<InfoData> {
    let mut table = Table::default();
    table.insert_predefined(environment_now("MPI_THREAD_SINGLE"));
    table
}

fn environment_now(thread_level: &str) -> InfoData {
    use std::os::unix::ffi::OsStringExt;
    let args: Vec<Vec<u8>> = std::env::args_os().map(OsStringExt::into_vec).collect();
    let host = std::env::var_os("HOSTNAME").map(OsStringExt::into_vec);
    let wdir = std::env::current_dir()
        .ok()
        .map(|dir| dir.into_os_string().into_vec());
    InfoData::environment(&args, host.as_deref(), wdir.as_deref(), thread_level)
}

impl Universe {
    /// The info object's pairs, or MPI_ERR_INFO.
    pub(super) fn with_info<T>(
        &self,
        info: Info,
        read: impl FnOnce(&InfoData) -> Result<T>,
    ) -> Result<T> {
        let state = self.lock()?;
        read(state.infos.get(info.0).ok_or(Error::InvalidInfo)?)
    }

    /// Changes a user info object; MPI_INFO_ENV cannot be changed (MPI_ERR_INFO).
    fn with_info_mut<T>(
        &self,
        info: Info,
        change: impl FnOnce(&mut InfoData) -> Result<T>,
    ) -> Result<T> {
        if info == Info::ENV {
            return Err(Error::InvalidInfo);
        }
        let mut state = self.lock()?;
        change(state.infos.get_mut(info.0).ok_or(Error::InvalidInfo)?)
    }

    /// Info objects can be made at any time, after MPI_Finalize too (MPI-4.1 §12.4.1).
    fn new_info(&self, data: InfoData) -> Result<Info> {
        let mut state = self.lock()?;
        state
            .infos
            .insert(data)
            .map(Info)
            .ok_or(Error::TooManyObjects("info"))
    }

    /// Records the thread level MPI_INFO_ENV reports (`thread_level`, e.g.
    /// "MPI_THREAD_MULTIPLE"); the C layer calls it once MPI_Init_thread has decided.
    pub fn info_env_thread_level(&self, thread_level: &str) -> Result<()> {
        let mut state = self.lock()?;
        let env = state.infos.get_mut(Info::ENV.0).ok_or(Error::InvalidInfo)?;
        env.set(b"thread_level", thread_level.as_bytes())
    }

    /// MPI_Info_create.
    pub fn info_create(&self) -> Result<Info> {
        self.new_info(InfoData::new())
    }

    /// MPI_Info_create_env: a new info object with MPI_INFO_ENV's pairs.
    pub fn info_create_env(&self) -> Result<Info> {
        let env = self.with_info(Info::ENV, |env| Ok(env.clone()))?;
        self.new_info(env)
    }

    /// MPI_Info_dup.
    pub fn info_dup(&self, info: Info) -> Result<Info> {
        let copy = self.with_info(info, |data| Ok(data.clone()))?;
        self.new_info(copy)
    }

    /// MPI_Info_free. MPI_INFO_ENV cannot be freed (MPI_ERR_INFO).
    pub fn info_free(&self, info: Info) -> Result<()> {
        if info == Info::ENV {
            return Err(Error::InvalidInfo);
        }
        self.lock()?
            .infos
            .remove(info.0)
            .map(|_| ())
            .ok_or(Error::InvalidInfo)
    }

    /// MPI_Info_set.
    pub fn info_set(&self, info: Info, key: &[u8], value: &[u8]) -> Result<()> {
        self.with_info_mut(info, |data| data.set(key, value))
    }

    /// MPI_Info_delete.
    pub fn info_delete(&self, info: Info, key: &[u8]) -> Result<()> {
        self.with_info_mut(info, |data| data.delete(key))
    }

    /// MPI_Info_get_string (see [`InfoString`]).
    pub fn info_get_string(&self, info: Info, key: &[u8], buflen: usize) -> Result<InfoString> {
        self.with_info(info, |data| data.get_string(key, buflen))
    }

    /// The deprecated MPI_Info_get (see [`InfoData::get`]).
    pub fn info_get(&self, info: Info, key: &[u8], valuelen: i32) -> Result<Option<Vec<u8>>> {
        self.with_info(info, |data| data.get(key, valuelen))
    }

    /// The deprecated MPI_Info_get_valuelen.
    pub fn info_get_valuelen(&self, info: Info, key: &[u8]) -> Result<Option<usize>> {
        self.with_info(info, |data| data.get_valuelen(key))
    }

    /// MPI_Info_get_nkeys.
    pub fn info_get_nkeys(&self, info: Info) -> Result<usize> {
        self.with_info(info, |data| Ok(data.nkeys()))
    }

    /// MPI_Info_get_nthkey.
    pub fn info_get_nthkey(&self, info: Info, n: i32) -> Result<Vec<u8>> {
        self.with_info(info, |data| data.nthkey(n).map(<[u8]>::to_vec))
    }

    /// How many info objects are alive, MPI_INFO_ENV included.
    pub fn info_count(&self) -> Result<usize> {
        Ok(self.lock()?.infos.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::error::ErrorClass;

    #[test]
    fn set_replace_delete_keep_order() {
        let mut info = InfoData::new();
        info.set(b"b", b"1").unwrap();
        info.set(b"a", b"two").unwrap();
        info.set(b" a ", b"").unwrap();
        info.set(b"b", b"3").unwrap();
        assert_eq!(info.nkeys(), 3);
        assert_eq!(info.nthkey(0).unwrap(), b"b");
        assert_eq!(info.nthkey(1).unwrap(), b"a");
        assert_eq!(info.nthkey(2).unwrap(), b" a ");
        assert_eq!(info.value(b" a ").unwrap(), Some(&b""[..]));
        info.delete(b" a ").unwrap();
        assert_eq!(info.value(b"a").unwrap(), Some(&b"two"[..]));
        assert_eq!(info.value(b"b").unwrap(), Some(&b"3"[..]));
        assert_eq!(info.nthkey(2).unwrap_err().class(), ErrorClass::Arg);
        assert_eq!(info.nthkey(-1).unwrap_err().class(), ErrorClass::Arg);
        info.delete(b"b").unwrap();
        assert_eq!(info.nthkey(0).unwrap(), b"a");
        assert_eq!(
            info.delete(b"b").unwrap_err().class(),
            ErrorClass::InfoNokey
        );
        assert_eq!(info.value(b"b").unwrap(), None);
    }

    #[test]
    fn length_limits() {
        let mut info = InfoData::new();
        let longest_key = vec![b'k'; MAX_INFO_KEY - 1];
        let longest_value = vec![b'v'; MAX_INFO_VAL - 1];
        info.set(&longest_key, &longest_value).unwrap();
        let before = info.clone();
        let refusals = [
            (info.set(&[b'k'; MAX_INFO_KEY], b"x"), ErrorClass::InfoKey),
            (info.set(b"", b"x"), ErrorClass::InfoKey),
            (info.set(b"k", &[b'v'; MAX_INFO_VAL]), ErrorClass::InfoValue),
            (info.delete(&[b'k'; MAX_INFO_KEY]), ErrorClass::InfoKey),
        ];
        for (result, class) in refusals {
            assert_eq!(result.unwrap_err().class(), class);
        }
        assert_eq!(info, before, "refused calls change nothing");
    }

    #[test]
    fn get_string_buflen_protocol() {
        let mut info = InfoData::new();
        info.set(b"key", b"hello").unwrap();
        assert_eq!(info.get_string(b"nokey", 10).unwrap(), InfoString::Missing);
        let found = |bytes: &[u8]| InfoString::Found {
            bytes: bytes.to_vec(),
            needed: 6,
        };
        // buflen 0 asks only for the length.
        assert_eq!(info.get_string(b"key", 0).unwrap(), found(b""));
        assert_eq!(info.get_string(b"key", 1).unwrap(), found(b""));
        assert_eq!(info.get_string(b"key", 3).unwrap(), found(b"he"));
        assert_eq!(info.get_string(b"key", 6).unwrap(), found(b"hello"));
        assert_eq!(info.get_string(b"key", 100).unwrap(), found(b"hello"));
    }

    #[test]
    fn deprecated_get_and_valuelen() {
        let mut info = InfoData::new();
        info.set(b"key", b"hello").unwrap();
        assert_eq!(info.get(b"key", 3).unwrap(), Some(b"hel".to_vec()));
        assert_eq!(info.get(b"key", 5).unwrap(), Some(b"hello".to_vec()));
        assert_eq!(info.get(b"key", 0).unwrap(), Some(Vec::new()));
        assert_eq!(info.get(b"other", 5).unwrap(), None);
        assert_eq!(info.get(b"key", -1).unwrap_err().class(), ErrorClass::Arg);
        assert_eq!(info.get_valuelen(b"key").unwrap(), Some(5));
        assert_eq!(info.get_valuelen(b"other").unwrap(), None);
    }

    #[test]
    fn dup_is_independent() {
        let mut info = InfoData::new();
        info.set(b"a", b"1").unwrap();
        let mut copy = info.clone();
        copy.set(b"a", b"2").unwrap();
        assert_eq!(info.value(b"a").unwrap(), Some(&b"1"[..]));
        assert_eq!(copy.value(b"a").unwrap(), Some(&b"2"[..]));
    }

    #[test]
    fn environment_of_one_process() {
        let args = vec![b"/bin/prog".to_vec(), b"-x".to_vec(), b"3".to_vec()];
        let env = InfoData::environment(&args, Some(b"node1"), Some(b"/tmp"), "MPI_THREAD_SINGLE");
        let keys: Vec<&[u8]> = env.pairs().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            vec![
                &b"command"[..],
                b"argv",
                b"maxprocs",
                b"soft",
                b"host",
                b"arch",
                b"wdir",
                b"thread_level"
            ]
        );
        assert_eq!(env.value(b"argv").unwrap(), Some(&b"-x 3"[..]));
        assert_eq!(env.value(b"maxprocs").unwrap(), Some(&b"1"[..]));
        assert_eq!(env.value(b"file").unwrap(), None);
        let bare = InfoData::environment(&[], None, None, "MPI_THREAD_MULTIPLE");
        assert_eq!(bare.nkeys(), 4);
        assert_eq!(
            bare.value(b"thread_level").unwrap(),
            Some(&b"MPI_THREAD_MULTIPLE"[..])
        );
    }
}
