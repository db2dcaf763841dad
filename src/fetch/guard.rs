//! Address guard: a feed (or a redirect) cannot make forest reach the user's own network.
//!
//! Links in a feed, and the targets of redirects, are written by whoever serves them. Left
//! alone, a feed could list `http://192.168.1.1/admin` or `http://169.254.169.254/` (a cloud
//! machine's metadata service) and have forest fetch them. So every host name is resolved
//! through [`GuardedResolver`], which drops private, loopback and link-local addresses, and URLs
//! that name such an address directly are refused before any request ([`Guard::check`]),
//! redirects included. Two exceptions: origins the user named themselves (the feed or page URLs
//! on the command line, see [`super::Fetcher::trust`]) and [`super::FetchOptions::allow_private`].
//!
//! Trust is per origin: scheme, host and port, the default port filled in (`http://h/` is
//! `http://h:80/`). Another port or scheme of a trusted host is not trusted, so a trusted local
//! server cannot redirect or link forest to the other services of its machine. The resolver is
//! told a host name but not the port, so it lets a trusted name's addresses through; for a
//! trusted name at an origin that is not trusted, [`Guard::check`] refuses it when the name
//! resolves to a private address.

use std::collections::{HashMap, HashSet};
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

/// Which origins may reach private addresses.
#[derive(Debug, Default)]
pub struct Guard {
    allow_private: bool,
    /// Origins the user named: scheme, host and port (the default one for http and https).
    trusted: RwLock<HashSet<url::Origin>>,
    /// The host names among them (lower-case).
    names: RwLock<HashSet<String>>,
    /// For each trusted name resolved so far, the first private address of its last lookup
    /// (`None`: all public).
    resolved: RwLock<HashMap<String, Option<IpAddr>>>,
}

impl Guard {
    /// A guard; `allow_private` turns it off.
    pub fn new(allow_private: bool) -> Arc<Guard> {
        Arc::new(Guard { allow_private, ..Guard::default() })
    }

    /// Let `url`'s origin (scheme, host and port) reach private addresses: the user named it.
    /// Other ports and schemes of the same host stay untrusted. A URL without an origin (not
    /// http or https) is ignored.
    pub fn trust(&self, url: &url::Url) {
        let origin = url.origin();
        if !origin.is_tuple() {
            return;
        }
        if let Ok(mut t) = self.trusted.write() {
            t.insert(origin);
        }
        if let Some(url::Host::Domain(name)) = url.host() {
            if let Ok(mut n) = self.names.write() {
                n.insert(name.to_ascii_lowercase());
            }
        }
    }

    /// Is `url`'s origin one the user named (or are private addresses allowed)?
    fn trusted(&self, url: &url::Url) -> bool {
        self.allow_private || self.trusted.read().is_ok_and(|t| t.contains(&url.origin()))
    }

    /// Is `name` the host of a trusted origin?
    fn trusted_name(&self, name: &str) -> bool {
        self.names.read().is_ok_and(|n| n.contains(&name.to_ascii_lowercase()))
    }

    /// Refuse a URL whose host is a private address literal, or a trusted name that resolves
    /// to one, unless its origin is trusted; other host names are checked when they resolve
    /// ([`GuardedResolver`]).
    ///
    /// # Errors
    /// The reason, ready for the user.
    pub fn check(&self, url: &url::Url) -> Result<(), String> {
        if self.trusted(url) {
            return Ok(());
        }
        let host = url.host_str().unwrap_or_default();
        let private = match url.host() {
            Some(url::Host::Ipv4(ip)) => Some(IpAddr::V4(ip)).filter(|ip| is_private(*ip)),
            Some(url::Host::Ipv6(ip)) => Some(IpAddr::V6(ip)).filter(|ip| is_private(*ip)),
            // The resolver lets a trusted name's addresses through whatever the port: another
            // origin of that name is refused here when the name is private.
            Some(url::Host::Domain(name)) if self.trusted_name(name) => {
                self.private_address_of(name, url.port_or_known_default().unwrap_or(0))
            }
            _ => None,
        };
        match private {
            Some(ip) => Err(refusal(host, ip)),
            None => Ok(()),
        }
    }

    /// The first private address of the trusted `name`: as the resolver last saw it, else looked
    /// up now (a name the user typed is normally resolved by its own fetch first, so the
    /// lookup here is rare). A name that does not resolve has none (its fetch fails anyway).
    fn private_address_of(&self, name: &str, port: u16) -> Option<IpAddr> {
        let key = name.to_ascii_lowercase();
        if let Some(seen) = self.resolved.read().ok().and_then(|r| r.get(&key).copied()) {
            return seen;
        }
        use std::net::ToSocketAddrs;
        let first = (name, port).to_socket_addrs().ok()?.map(|a| a.ip()).find(|ip| is_private(*ip));
        if let Ok(mut r) = self.resolved.write() {
            r.insert(key, first);
        }
        first
    }

    /// The addresses of `host` forest may connect to.
    fn filter(&self, host: &str, addrs: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, String> {
        if self.allow_private {
            return Ok(addrs);
        }
        let first_private = addrs.iter().map(SocketAddr::ip).find(|ip| is_private(*ip));
        if self.trusted_name(host) {
            // Remembered for `check`, which knows the port and refuses other origins.
            if let Ok(mut r) = self.resolved.write() {
                r.insert(host.to_ascii_lowercase(), first_private);
            }
            return Ok(addrs);
        }
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
    fn trusted_origins_and_allow_private_let_literals_through() {
        let g = Guard::new(false);
        let u = |s: &str| url::Url::parse(s).unwrap();
        assert!(g.check(&u("http://127.0.0.1:8080/x")).is_err());
        assert!(g.check(&u("http://[::1]/x")).unwrap_err().contains(REFUSED));
        assert!(g.check(&u("http://example.org/x")).is_ok());
        g.trust(&u("http://127.0.0.1:8080/feed.xml"));
        assert!(g.check(&u("http://127.0.0.1:8080/x")).is_ok());
        assert!(g.check(&u("http://127.0.0.2/x")).is_err());
        assert!(Guard::new(true).check(&u("http://10.0.0.1/")).is_ok());
        let addrs = vec!["127.0.0.1:0".parse().unwrap(), "93.184.216.34:0".parse().unwrap()];
        assert_eq!(g.filter("mixed.example", addrs).unwrap().len(), 1);
        assert!(g.filter("local.example", vec!["10.0.0.1:0".parse().unwrap()]).is_err());
    }

    #[test]
    fn trust_is_per_origin_with_default_ports() {
        let g = Guard::new(false);
        let u = |s: &str| url::Url::parse(s).unwrap();
        g.trust(&u("http://127.0.0.1:8080/"));
        // Another port or scheme of the same host is not the origin the user named.
        assert!(g.check(&u("http://127.0.0.1:8081/x")).unwrap_err().contains(REFUSED));
        assert!(g.check(&u("https://127.0.0.1:8080/x")).is_err());
        assert!(g.check(&u("http://127.0.0.1/x")).is_err());
        // The default port is filled in: `http://10.0.0.1/` is `http://10.0.0.1:80/`.
        g.trust(&u("http://10.0.0.1/"));
        assert!(g.check(&u("http://10.0.0.1:80/a")).is_ok());
        assert!(g.check(&u("https://10.0.0.1/a")).is_err());
        g.trust(&u("https://[fd00::1]/"));
        assert!(g.check(&u("https://[fd00::1]:443/a")).is_ok());
        assert!(g.check(&u("https://[fd00::1]:8443/a")).is_err());
        // Only http(s) URLs have an origin to trust.
        g.trust(&u("file:///etc/passwd"));
        assert_eq!(g.trusted.read().unwrap().len(), 3);
    }

    #[test]
    fn a_trusted_name_at_another_origin_is_refused_when_private() {
        let g = Guard::new(false);
        let u = |s: &str| url::Url::parse(s).unwrap();
        g.trust(&u("http://Intranet.example:8080/feed.xml"));
        g.trust(&u("https://news.example/feed.xml"));
        // The resolver lets a trusted name's addresses through, and remembers them.
        let private = vec!["10.1.2.3:0".parse().unwrap()];
        assert_eq!(g.filter("intranet.example", private).unwrap().len(), 1);
        assert_eq!(g.filter("news.example", vec!["93.184.216.34:0".parse().unwrap()]).unwrap().len(), 1);
        assert!(g.check(&u("http://intranet.example:8080/a")).is_ok());
        let why = g.check(&u("http://intranet.example:9000/admin")).unwrap_err();
        assert!(why.contains(REFUSED) && why.contains("10.1.2.3"), "{why}");
        // A public name is not held back at another origin (http to https and the like).
        assert!(g.check(&u("http://news.example/a")).is_ok());
    }
}
