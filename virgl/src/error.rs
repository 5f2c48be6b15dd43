//! What can go wrong between the client and the VirGL host.

use std::path::PathBuf;
use thiserror::Error;

/// A failure of the VirGL client, its server or the host.
#[derive(Debug, Error)]
pub enum VirglError {
    /// `virgl_test_server` is not installed (not found on `PATH`).
    #[error(
        "{program} not found: install Debian's virgl-server package \
         (apt-get install --no-install-recommends virgl-server), or name the \
         server program with CSIR_VIRGL_SERVER"
    )]
    ServerMissing {
        /// The program that was looked for.
        program: String,
    },
    /// The server could not be started, or stopped before it listened.
    #[error("{program} did not start: {reason}{log}")]
    ServerStart {
        /// The program run.
        program: String,
        /// What happened.
        reason: String,
        /// The end of the server's output, prefixed with a newline (may be empty).
        log: String,
    },
    /// Reading or writing the socket failed.
    #[error("vtest socket {socket}: {source}")]
    Io {
        /// The socket path.
        socket: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The host closed the connection, which it does when it rejects a command
    /// (a shader its TGSI parser refuses, an object with a bad handle, ...).
    #[error("the VirGL host closed the connection after {after}{log}")]
    Disconnected {
        /// The last request sent.
        after: String,
        /// The end of the server's output, prefixed with a newline (may be empty).
        log: String,
    },
    /// The host answered with something the protocol does not allow here.
    #[error("unexpected vtest reply to {request}: {reply}")]
    Protocol {
        /// The request sent.
        request: String,
        /// What came back.
        reply: String,
    },
    /// A command does not fit in one virgl command (at most 65 535 dwords).
    #[error("{command} needs {dwords} dwords, more than one virgl command holds (65535)")]
    CommandTooLong {
        /// The command.
        command: &'static str,
        /// Its payload length in dwords.
        dwords: usize,
    },
}

impl VirglError {
    /// The same error with the server's output `log` attached, for the kinds that
    /// carry one (a disconnect or a failed start).
    pub fn with_log(self, log: String) -> VirglError {
        match self {
            VirglError::Disconnected { after, .. } => VirglError::Disconnected { after, log },
            VirglError::ServerStart {
                program, reason, ..
            } => VirglError::ServerStart {
                program,
                reason,
                log,
            },
            other => other,
        }
    }
}
