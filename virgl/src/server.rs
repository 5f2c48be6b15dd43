//! A private `virgl_test_server`: started on a socket in a fresh temporary folder,
//! serving exactly one client, stopped when dropped.
//!
//! The server runs with `--use-egl-surfaceless` (no display needed; Mesa picks its
//! driver, llvmpipe on a machine without a GPU) and `--no-loop-or-fork`, so it serves
//! one connection and then exits by itself: if this process dies without running its
//! destructors, the closed socket still ends the server. Its standard output and error
//! go to a log file in the same folder; errors quote the end of it, since that is
//! where the host says why it refused a shader.

use crate::error::VirglError;
use crate::vtest::VtestConnection;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The environment variable that names another server program.
pub const SERVER_ENV: &str = "CSIR_VIRGL_SERVER";

/// The server program run when [`SERVER_ENV`] is not set.
pub const DEFAULT_SERVER: &str = "virgl_test_server";

/// How long to wait for the server's socket.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// Lines of the server's log quoted in errors.
const LOG_LINES: usize = 25;

/// Servers alive in this process, for [`stop_all_servers`].
static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());

struct Live {
    id: u64,
    child: Arc<Mutex<Child>>,
    dir: PathBuf,
}

/// A running private server.
pub struct VtestServer {
    id: u64,
    child: Arc<Mutex<Child>>,
    program: String,
    /// Removed (with the socket and log) after the server is stopped.
    _dir: tempfile::TempDir,
    socket: PathBuf,
    log: PathBuf,
}

impl VtestServer {
    /// Start the server named by [`SERVER_ENV`] (default [`DEFAULT_SERVER`]) on a new
    /// socket and wait until it listens.
    ///
    /// Errors: [`VirglError::ServerMissing`] when the program is not installed,
    /// [`VirglError::ServerStart`] when it cannot be run or exits before listening
    /// (with the end of its output).
    pub fn start() -> Result<VtestServer, VirglError> {
        let program = std::env::var(SERVER_ENV).unwrap_or_else(|_| DEFAULT_SERVER.to_owned());
        let start_error = |reason: String| VirglError::ServerStart {
            program: program.clone(),
            reason,
            log: String::new(),
        };
        let dir = tempfile::Builder::new()
            .prefix("csir-virgl-")
            .tempdir()
            .map_err(|e| start_error(format!("cannot create a temporary folder: {e}")))?;
        let socket = dir.path().join("vtest.sock");
        let log = dir.path().join("server.log");
        let out = File::create(&log)
            .map_err(|e| start_error(format!("cannot create {}: {e}", log.display())))?;
        let err = out
            .try_clone()
            .map_err(|e| start_error(format!("cannot share {}: {e}", log.display())))?;
        let child = Command::new(&program)
            .arg("--use-egl-surfaceless")
            .arg("--no-loop-or-fork")
            // `--socket-path=PATH`, not `--socket-path PATH`: virglrenderer 0.10
            // declares the option's argument optional, so a separate word would be
            // taken for the file to replay.
            .arg(format!("--socket-path={}", socket.display()))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => VirglError::ServerMissing {
                    program: program.clone(),
                },
                _ => start_error(e.to_string()),
            })?;
        let child = Arc::new(Mutex::new(child));
        let id = register(&child, dir.path());
        let server = VtestServer {
            id,
            child,
            program,
            _dir: dir,
            socket,
            log,
        };
        server.wait_for_socket()?;
        Ok(server)
    }

    /// The socket path.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// The last lines of the server's output, each indented, after a newline and a
    /// heading; empty when it printed nothing.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            return String::new();
        }
        let first = lines.len().saturating_sub(LOG_LINES);
        let mut tail = format!("\n{} said (last lines of its output):", self.program);
        for line in &lines[first..] {
            tail.push_str("\n    ");
            tail.push_str(line);
        }
        tail
    }

    /// Connect as the server's one client, retrying while it is still getting ready
    /// to accept; reads block for at most `timeout`.
    ///
    /// Errors: the server stopped, or did not accept within the start timeout.
    pub fn connect(&self, name: &str, timeout: Duration) -> Result<VtestConnection, VirglError> {
        let start = Instant::now();
        loop {
            match VtestConnection::connect(&self.socket, name, timeout) {
                Ok(connection) => return Ok(connection),
                Err(VirglError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::ConnectionRefused
                        && start.elapsed() < START_TIMEOUT
                        && self.running() =>
                {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(e.with_log(self.log_tail())),
            }
        }
    }

    /// `error` with the server's output attached (for a disconnect).
    pub fn explain(&self, error: VirglError) -> VirglError {
        error.with_log(self.log_tail())
    }

    fn running(&self) -> bool {
        let mut child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
        matches!(child.try_wait(), Ok(None))
    }

    fn wait_for_socket(&self) -> Result<(), VirglError> {
        let start = Instant::now();
        while !self.socket.exists() {
            let status = {
                let mut child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
                child.try_wait()
            };
            let reason = match status {
                Ok(Some(status)) => Some(format!("it exited ({status}) before listening")),
                Err(e) => Some(e.to_string()),
                Ok(None) if start.elapsed() > START_TIMEOUT => Some(format!(
                    "no socket at {} after {} s",
                    self.socket.display(),
                    START_TIMEOUT.as_secs()
                )),
                Ok(None) => None,
            };
            if let Some(reason) = reason {
                return Err(VirglError::ServerStart {
                    program: self.program.clone(),
                    reason,
                    log: self.log_tail(),
                });
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }
}

impl Drop for VtestServer {
    fn drop(&mut self) {
        stop(&self.child);
        LIVE.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|l| l.id != self.id);
    }
}

fn register(child: &Arc<Mutex<Child>>, dir: &Path) -> u64 {
    static NEXT: Mutex<u64> = Mutex::new(0);
    let id = {
        let mut next = NEXT.lock().unwrap_or_else(PoisonError::into_inner);
        *next += 1;
        *next
    };
    LIVE.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Live {
            id,
            child: child.clone(),
            dir: dir.to_owned(),
        });
    id
}

/// Kill a server (if it still runs) and reap it.
fn stop(child: &Mutex<Child>) {
    let mut child = child.lock().unwrap_or_else(PoisonError::into_inner);
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// Stop every server this process started and remove their folders: for a Ctrl-C
/// handler that is about to exit without running destructors.
pub fn stop_all_servers() {
    let live = std::mem::take(&mut *LIVE.lock().unwrap_or_else(PoisonError::into_inner));
    for server in live {
        stop(&server.child);
        let _ = std::fs::remove_dir_all(&server.dir);
    }
}
