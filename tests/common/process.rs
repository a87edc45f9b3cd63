//! The `holdfast` binary as an operator starts it: its own process over a
//! given database, rate limits off, killed (SIGKILL) and reaped when
//! dropped, so a test can crash it mid-work.

pub struct Server {
    pub child: std::process::Child,
    pub base: String,
}

impl Server {
    /// Starts the binary with `env` on top of the database and a free port,
    /// and waits until it is ready.
    pub async fn start(database_url: &str, env: &[(&str, &str)]) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_holdfast"))
            .env_clear()
            .env("DATABASE_URL", database_url)
            .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
            .env("RATE_LIMIT_IP_PER_MINUTE", "0")
            .env("RATE_LIMIT_SESSION_PER_MINUTE", "0")
            .envs(env.iter().copied())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the server starts");
        // Owned at once: dropped (on a panic too), it is killed and reaped.
        let server = Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let http = reqwest::Client::new();
        for _ in 0..600 {
            if http
                .get(format!("{}/readyz", server.base))
                .send()
                .await
                .is_ok_and(|r| r.status() == 200)
            {
                return server;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("the server did not become ready in 60 s");
    }

    /// `kill -9`: nothing of the process runs on, nothing is cleaned up.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}
