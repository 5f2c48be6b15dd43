//! Reading a whole file with a size limit.

use super::text::utf8_text;
use std::fs::File;
use std::io::{self, ErrorKind, Read};
use std::path::Path;

/// The bytes of the file at `path`, at most `limit` of them.
///
/// A regular file whose size is already over `limit` is refused without reading it;
/// otherwise at most `limit + 1` bytes are read (through [`Read::take`]), so a file that
/// grows, a pipe or a `/proc` file that reports size 0 cannot make the read endless.
/// Directories, character and block devices (`/dev/zero`, a terminal) and sockets are
/// refused before anything is read.
///
/// # Errors
/// The operating system's error when the file cannot be opened or read;
/// [`ErrorKind::InvalidInput`] "not a regular file" for a directory, device or socket;
/// [`ErrorKind::FileTooLarge`] (see [`too_large`]) when the file holds more than `limit`
/// bytes. The messages do not name the file: callers put the path first
/// (`PATH: 600000000 bytes, larger than the 536870912-byte limit`).
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    let kind = metadata.file_type();
    if !(kind.is_file() || is_fifo(&kind)) {
        return Err(io::Error::new(
            ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    if kind.is_file() && metadata.len() > limit {
        return Err(too_large(limit, Some(metadata.len())));
    }
    // The size of a regular file is a good first guess (exact unless it changes).
    let guess = if kind.is_file() { metadata.len() } else { 0 };
    let mut bytes = Vec::with_capacity(usize::try_from(guess).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        // A pipe, or a file that grew while it was read: its size is not known.
        return Err(too_large(limit, None));
    }
    Ok(bytes)
}

/// The text of the file at `path` (see [`read_bounded`]), which must be UTF-8.
///
/// # Errors
/// As [`read_bounded`], plus [`ErrorKind::InvalidData`] "not UTF-8 text (invalid byte
/// at line L, column C)" (see [`NotUtf8`](super::NotUtf8)).
pub fn read_text_bounded(path: &Path, limit: u64) -> io::Result<String> {
    utf8_text(read_bounded(path, limit)?).map_err(|e| io::Error::new(ErrorKind::InvalidData, e))
}

/// The error [`read_bounded`] gives for a file over `limit` bytes:
/// [`ErrorKind::FileTooLarge`]: "S bytes, larger than the N-byte limit" for a file of
/// known `size` S, "larger than the N-byte limit" otherwise (a pipe is never read
/// past its first `limit + 1` bytes).
pub fn too_large(limit: u64, size: Option<u64>) -> io::Error {
    let message = match size {
        Some(size) => format!("{size} bytes, larger than the {limit}-byte limit"),
        None => format!("larger than the {limit}-byte limit"),
    };
    io::Error::new(ErrorKind::FileTooLarge, message)
}

#[cfg(unix)]
fn is_fifo(kind: &std::fs::FileType) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(kind)
}

#[cfg(not(unix))]
fn is_fifo(_kind: &std::fs::FileType) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
        let path = std::env::temp_dir().join(format!(
            "csir-render-file-read-{name}-{}",
            std::process::id()
        ));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn files_up_to_the_limit_are_read_whole() {
        let path = scratch("exact", b"0123456789");
        assert_eq!(read_bounded(&path, 10).unwrap(), b"0123456789");
        let err = read_bounded(&path, 9).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(err.kind(), ErrorKind::FileTooLarge);
        assert_eq!(err.to_string(), "10 bytes, larger than the 9-byte limit");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn endless_devices_and_directories_are_refused_at_once() {
        for path in ["/dev/zero", "/dev/urandom", "/"] {
            let err = read_bounded(Path::new(path), u64::MAX).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput, "{path}");
            assert_eq!(err.to_string(), "not a regular file", "{path}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn files_whose_size_is_unknown_are_read_up_to_the_limit() {
        // /proc files report size 0 but are not empty.
        let text = read_bounded(Path::new("/proc/self/status"), 1 << 20).unwrap();
        assert!(text.starts_with(b"Name:"));
        let err = read_bounded(Path::new("/proc/self/status"), 8).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::FileTooLarge);
    }

    #[test]
    fn missing_files_give_the_operating_system_error() {
        let err = read_bounded(Path::new("/nonexistent/dir/f"), 10).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
    }

    #[test]
    fn text_must_be_utf8() {
        let path = scratch("text", b"ok\nbad \xff here");
        let err = read_text_bounded(&path, 100).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(err.kind(), ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "not UTF-8 text (invalid byte at line 2, column 5)"
        );
    }
}
