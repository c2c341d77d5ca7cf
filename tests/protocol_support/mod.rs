//! In-process driver for `kishi::protocol::run`: lines go in through a channel-backed reader, every
//! output line comes back on a channel, so tests exercise the real loop (input thread, controller,
//! search threads, shared writer) without a process boundary.

#![allow(dead_code)]

use crossbeam::channel::{unbounded, Receiver, RecvTimeoutError, Sender};
use std::io::{BufRead, Read, Write};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A reader fed by a channel of byte chunks; a closed channel is end of input.
struct ChanReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChanReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChanReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.buf = chunk;
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

/// A writer that sends each complete line.
struct ChanWriter {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for ChanWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        for &b in data {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                let _ = self.tx.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub struct Session {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    handle: Option<JoinHandle<i32>>,
    /// Every line received so far, for failure messages.
    pub transcript: Vec<String>,
}

pub const WAIT: Duration = Duration::from_secs(60);

impl Session {
    pub fn start() -> Self {
        let (in_tx, in_rx) = unbounded::<Vec<u8>>();
        let (out_tx, out_rx) = unbounded::<String>();
        let reader = ChanReader {
            rx: in_rx,
            buf: Vec::new(),
            pos: 0,
        };
        let writer = ChanWriter {
            tx: out_tx,
            partial: Vec::new(),
        };
        let handle = std::thread::spawn(move || kishi::protocol::run(reader, writer));
        Session {
            input: Some(in_tx),
            output: out_rx,
            handle: Some(handle),
            transcript: Vec::new(),
        }
    }

    /// Sends raw bytes (the test adds the line ending it wants).
    pub fn send_raw(&self, bytes: &[u8]) {
        if let Some(tx) = &self.input {
            tx.send(bytes.to_vec()).expect("the loop is running");
        }
    }

    pub fn send(&self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// The next output line, or `None` after `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.output.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`; panics with the transcript
    /// after `WAIT`.
    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => panic!("timed out waiting for {what}; last lines:\n{}", self.tail()),
            }
        }
    }

    /// Sends `isready`; returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    pub fn bestmove(&mut self) -> Vec<String> {
        self.until("bestmove", |l| l.starts_with("bestmove"))
    }

    pub fn tail(&self) -> String {
        let n = self.transcript.len();
        self.transcript[n.saturating_sub(30)..].join("\n")
    }

    /// Closes the input (EOF) and returns the loop's exit code.
    pub fn close(mut self) -> i32 {
        self.input.take();
        let h = self.handle.take().expect("joined once");
        h.join().expect("the protocol loop must not panic")
    }

    /// Waits for the loop to return (after `quit`).
    pub fn join(mut self) -> i32 {
        let h = self.handle.take().expect("joined once");
        h.join().expect("the protocol loop must not panic")
    }
}

/// Lines of `lines` that are error reports.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}
