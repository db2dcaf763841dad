//! Address guard: a feed (or a redirect) cannot make forest reach the user's own network.
//!
//! Links in a feed, and the targets of redirects, are written by whoever serves them. Left
//! alone, a feed could list `http://192.168.1.1/admin` or `http://169.254.169.254/` (a cloud
//! machine's metadata service) and have forest fetch them. So every host name is resolved
//! through [`GuardedResolver`], which drops private, loopback and link-local addresses, and URLs
//! that name such an address directly are refused before any request ([`Guard::check`]),
//! redirects included. Two exceptions: hosts the user named themselves (the feed or page URLs
//! on the command line, see [`super::Fetcher::trust`]) and [`super::FetchOptions::allow_private`].

use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, RwLock};

/// Is `ip` an address a remote page must not make forest reach: loopback, private (RFC 1918,
/// unique local `fc00::/7`), link-local, shared (CGNAT `100.64/10`), unspecified, broadcast,
/// multicast, documentation or benchmarking ranges, or an IPv4 one mapped into IPv6?
///
/// # Example
/// ```
/// use forest::fetch::guard::is_private;
/// assert!(is_private("127.0.0.1".parse().unwrap()));
/// assert!(is_private("169.254.169.254".parse().unwrap()));
/// assert!(is_private("::ffff:10.0.0.1".parse().unwrap()));
/// assert!(!is_private("93.184.216.34".parse().unwrap()));
/// ```
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => private_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return private_v4(v4);
            }
            let s = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || (s[0] == 0x0064 && s[1] == 0xff9b) // NAT64 (maps IPv4, maybe private)
                || (s[0] == 0 && s[1] == 0 && s[2] == 0 && s[3] == 0 && s[4] == 0 && s[5] == 0) // IPv4-compatible
        }
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    let o = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || o[0] == 0 // "this network"
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // shared address space (CGNAT)
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
        || (o[0] == 198 && (o[1] & 0xfe) == 18) // benchmarking
        || o[0] >= 240 // reserved
}

/// Which hosts may resolve to private addresses.
#[derive(Debug, Default)]
pub struct Guard {
    allow_private: bool,
    /// Hosts the user named (lower-case).
    trusted: RwLock<HashSet<String>>,
}

impl Guard {
    /// A guard; `allow_private` turns it off.
    pub fn new(allow_private: bool) -> Arc<Guard> {
        Arc::new(Guard { allow_private, trusted: RwLock::new(HashSet::new()) })
    }

    /// Let `host` reach private addresses (the user named it).
    pub fn trust(&self, host: &str) {
        if let Ok(mut t) = self.trusted.write() {
            t.insert(host.trim_matches(['[', ']']).to_ascii_lowercase());
        }
    }

    fn trusted(&self, host: &str) -> bool {
        self.allow_private || self.trusted.read().is_ok_and(|t| t.contains(&host.trim_matches(['[', ']']).to_ascii_lowercase()))
    }

    /// Refuse a URL whose host is a private address literal, unless trusted; host names are
    /// checked when they resolve ([`GuardedResolver`]).
    ///
    /// # Errors
    /// The reason, ready for the user.
    pub fn check(&self, url: &url::Url) -> Result<(), String> {
        let ip = match url.host() {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
            _ => return Ok(()),
        };
        let host = url.host_str().unwrap_or_default();
        if is_private(ip) && !self.trusted(host) {
            return Err(refusal(host, ip));
        }
        Ok(())
    }

    /// The addresses of `host` forest may connect to.
    fn filter(&self, host: &str, addrs: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, String> {
        if self.trusted(host) {
            return Ok(addrs);
        }
        let first_private = addrs.iter().map(SocketAddr::ip).find(|ip| is_private(*ip));
        let public: Vec<SocketAddr> = addrs.into_iter().filter(|a| !is_private(a.ip())).collect();
        match (public.is_empty(), first_private) {
            (true, Some(ip)) => Err(refusal(host, ip)),
            _ => Ok(public),
        }
    }
}

/// The words every refusal holds, by which a refusal is told from other failures.
pub(crate) const REFUSED: &str = "is a private, loopback or link-local address";

fn refusal(host: &str, ip: IpAddr) -> String {
    format!("refused: {host} {REFUSED} ({ip}), reached through a link or redirect")
}

/// The DNS resolver of forest's HTTP client: the system's, minus the addresses [`Guard`] refuses.
pub struct GuardedResolver {
    /// The guard in force.
    pub guard: Arc<Guard>,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let guard = Arc::clone(&self.guard);
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed = guard.filter(&host, addrs).map_err(|m| -> Box<dyn std::error::Error + Send + Sync> { m.into() })?;
            let addrs: reqwest::dns::Addrs = Box::new(allowed.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_ranges_are_refused_and_public_ones_pass() {
        for ip in [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
            "255.255.255.255", "224.0.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:192.168.1.1", "::ffff:127.0.0.1",
        ] {
            assert!(is_private(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "100.128.0.1"] {
            assert!(!is_private(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn trusted_hosts_and_allow_private_let_literals_through() {
        let g = Guard::new(false);
        let u = |s: &str| url::Url::parse(s).unwrap();
        assert!(g.check(&u("http://127.0.0.1:8080/x")).is_err());
        assert!(g.check(&u("http://[::1]/x")).unwrap_err().contains(REFUSED));
        assert!(g.check(&u("http://example.org/x")).is_ok());
        g.trust("127.0.0.1");
        assert!(g.check(&u("http://127.0.0.1:8080/x")).is_ok());
        assert!(g.check(&u("http://127.0.0.2/x")).is_err());
        assert!(Guard::new(true).check(&u("http://10.0.0.1/")).is_ok());
        let addrs = vec!["127.0.0.1:0".parse().unwrap(), "93.184.216.34:0".parse().unwrap()];
        assert_eq!(g.filter("mixed.example", addrs).unwrap().len(), 1);
        assert!(g.filter("local.example", vec!["10.0.0.1:0".parse().unwrap()]).is_err());
    }
}
