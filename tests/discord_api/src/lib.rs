//! What the tests of the imported Discord API share: the mock server on 127.0.0.1, and a client
//! of it.

use discord_client::Client;
use discord_client::types::auth::Credential;
use discord_client::types::placeholders::Placeholders;
use std::net::SocketAddr;

/// The mock server, listening on a free port of 127.0.0.1 for as long as the runtime lives.
pub struct Mock {
    /// Where it listens.
    pub addr: SocketAddr,
    runtime: tokio::runtime::Runtime,
}

impl Mock {
    /// Starts the mock server.
    pub fn start() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
        let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("a free port");
        let addr = listener.local_addr().expect("an address");
        runtime.spawn(async move { axum::serve(listener, discord_server::mock::router()).await });
        Self { addr, runtime }
    }

    /// The API's address on this server: the spec's `base_url` path under the loopback origin.
    pub fn base_url(&self) -> String {
        format!("http://{}/api/v10", self.addr)
    }

    /// A client of the mock, presenting a bot token.
    pub fn client(&self) -> Client {
        self.client_at(&self.base_url())
    }

    /// A client of the API at `base_url`, presenting a bot token.
    pub fn client_at(&self, base_url: &str) -> Client {
        Client::new(Placeholders { base_url: base_url.to_owned() }).with_credential(Credential::bot_token("mock-token"))
    }

    /// Runs a future (or a request of the client, which becomes one) on the server's runtime.
    pub fn block_on<F: std::future::IntoFuture>(&self, f: F) -> F::Output {
        self.runtime.block_on(f.into_future())
    }

    /// Runs a future in the background on the server's runtime (another server, say).
    pub fn spawn<F: std::future::Future<Output: Send + 'static> + Send + 'static>(&self, f: F) {
        self.runtime.spawn(f);
    }
}
