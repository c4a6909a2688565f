//! Origins, sites and potential trustworthiness: HTML's origin and site concepts, the URL Standard's origin of a URL, and the Secure Contexts trustworthiness checks.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use sched::Name;

/// An origin: opaque, or a tuple of scheme, host and port.
///
/// <https://html.spec.whatwg.org/multipage/browsers.html#concept-origin>
///
/// Opaque origins carry an id the simulator allocates deterministically (see [`Origin::of_url`]), never the `url` crate's process-global counter, so two runs of one scenario allocate the same ids.
/// A tuple origin's domain is always null, because the simulator does not model `document.domain`; "same origin-domain" therefore reduces to "same origin".
///
/// Schemes and hosts are interned [`Name`]s, so copying an origin copies two pointers and comparing two equal origins compares pointers, not text.
/// Equality and order are those of the fields (the order is the derived one, variant first); interning only makes them faster.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Origin {
    /// An opaque origin, identified by its simulator-allocated id.
    Opaque(u32),
    /// A tuple origin.
    /// `host` is the serialized host (domains lowercased and punycoded, IPv6 addresses in brackets, as the `url` crate serializes them); `port` is `None` for the scheme's default port.
    Tuple {
        /// The scheme, such as `"https"` (interned: origins are copied often while exploring).
        scheme: Name,
        /// The serialized host, such as `"example.com"` or `"[::1]"`.
        host: Name,
        /// The port, or `None` when it is the scheme's default.
        port: Option<u16>,
    },
}

impl Origin {
    /// The origin of a URL.
    ///
    /// <https://url.spec.whatwg.org/#concept-url-origin>
    ///
    /// Each new opaque origin takes the id in `next_opaque`, which is then incremented.
    pub fn of_url(url: &url::Url, next_opaque: &mut u32) -> Origin {
        // The origin of a URL url is the origin returned by running these steps, switching on url's scheme:
        match url.scheme() {
            // "blob"
            "blob" => {
                // Step 1. If url's blob URL entry is non-null, then return url's blob URL entry's environment's origin.
                // TODO(spec): not modelled; the simulator has no blob URL store.
                // Step 2. Let pathURL be the result of parsing the result of URL path serializing url.
                // Step 3. If pathURL is failure, then return a new opaque origin.
                // Step 4. If pathURL's scheme is "http", "https", or "file", then return pathURL's origin.
                // Step 5. Return a new opaque origin.
                match url::Url::parse(url.path()) {
                    Ok(path_url) if matches!(path_url.scheme(), "http" | "https" | "file") => {
                        Origin::of_url(&path_url, next_opaque)
                    }
                    _ => Origin::new_opaque(next_opaque),
                }
            }
            // "ftp", "http", "https", "ws", "wss": Return the tuple origin (url's scheme, url's host, url's port, null).
            "ftp" | "http" | "https" | "ws" | "wss" => Origin::Tuple {
                scheme: Name::new(url.scheme()),
                host: Name::new(url.host_str().unwrap_or_default()),
                port: url.port(),
            },
            // "file": Unfortunate as it is, this is left as an exercise to the reader. When in doubt, return a new opaque origin.
            // Deviation: every file: URL gets the tuple origin ("file", "", null) rather than an opaque one, because WebMCP's registerTool() and getTools() step 4 and executeTool() step 3 test the relevant settings object's origin's scheme for "file", and only a tuple origin has a scheme.
            "file" => Origin::Tuple { scheme: Name::new("file"), host: Name::new(""), port: None },
            // Otherwise: Return a new opaque origin.
            _ => Origin::new_opaque(next_opaque),
        }
    }

    /// Allocates a new opaque origin from the simulator's counter.
    fn new_opaque(next_opaque: &mut u32) -> Origin {
        let id = *next_opaque;
        *next_opaque += 1;
        Origin::Opaque(id)
    }

    /// Whether this is an opaque origin.
    ///
    /// <https://html.spec.whatwg.org/multipage/browsers.html#concept-origin-opaque>
    pub fn is_opaque(&self) -> bool {
        matches!(self, Origin::Opaque(_))
    }

    /// Whether two origins are same origin.
    ///
    /// <https://html.spec.whatwg.org/multipage/browsers.html#same-origin>
    #[inline]
    pub fn same_origin(&self, other: &Origin) -> bool {
        // Two origins, A and B, are said to be same origin if either of the following statements is true:
        // - A and B are the same opaque origin.
        // - A and B are both tuple origins and their schemes, hosts, and port are identical.
        self == other
    }

    /// The ASCII serialization of an origin: `"null"` for an opaque origin, else `scheme://host[:port]`.
    ///
    /// <https://html.spec.whatwg.org/multipage/browsers.html#ascii-serialisation-of-an-origin>
    pub fn serialize(&self) -> String {
        match self {
            // Step 1. If origin is an opaque origin, then return "null".
            Origin::Opaque(_) => "null".to_owned(),
            Origin::Tuple { scheme, host, port } => {
                // Written with `push_str` into a string sized for the whole result (`to_string` would go through `Display`); at most 6 bytes for ":65535".
                let mut result = String::with_capacity(scheme.len() + 3 + host.len() + 6);
                // Step 2. Otherwise, let result be origin's scheme.
                result.push_str(scheme);
                // Step 3. Append "://" to result.
                result.push_str("://");
                // Step 4. Append origin's host, serialized, to result.
                result.push_str(host);
                // Step 5. If origin's port is non-null, append a U+003A COLON character (:), and origin's port, serialized, to result.
                if let Some(port) = port {
                    result.push(':');
                    result.push_str(itoa::Buffer::new().format(*port));
                }
                // Step 6. Return result.
                result
            }
        }
    }

    /// The origin's scheme, or `None` for an opaque origin.
    ///
    /// <https://html.spec.whatwg.org/multipage/browsers.html#concept-origin-scheme>
    pub fn scheme(&self) -> Option<&str> {
        match self {
            Origin::Opaque(_) => None,
            Origin::Tuple { scheme, .. } => Some(scheme),
        }
    }

    /// Obtains the origin's site.
    ///
    /// <https://html.spec.whatwg.org/multipage/browsers.html#obtain-a-site>
    pub fn site(&self) -> Site {
        match self {
            // Step 1. If origin is an opaque origin, then return origin.
            Origin::Opaque(id) => Site::Opaque(*id),
            Origin::Tuple { scheme, host, .. } => {
                // The site shares the origin's scheme, and its host when the host is the site's host.
                let host = match registrable_domain(host) {
                    // Step 2. If origin's host's registrable domain is null, then return (origin's scheme, origin's host).
                    None => *host,
                    // Step 3. Return (origin's scheme, origin's host's registrable domain).
                    Some(domain) if domain.len() == host.len() => *host,
                    Some(domain) => Name::new(domain),
                };
                Site::SchemeAndHost { scheme: *scheme, host }
            }
        }
    }

    /// Whether the origin is potentially trustworthy.
    ///
    /// <https://w3c.github.io/webappsec-secure-contexts/#is-origin-trustworthy>
    pub fn is_potentially_trustworthy(&self) -> bool {
        // Step 1. If origin is an opaque origin, return "Not Trustworthy".
        // Step 2. Assert: origin is a tuple origin.
        let Origin::Tuple { scheme, host, .. } = self else {
            return false;
        };
        let (scheme, host) = (&**scheme, &**host);
        // Step 3. If origin's scheme is either "https" or "wss", return "Potentially Trustworthy".
        if scheme == "https" || scheme == "wss" {
            return true;
        }
        // Step 4. If origin's host matches one of the CIDR notations 127.0.0.0/8 or ::1/128 [RFC4632], return "Potentially Trustworthy".
        if let Ok(v4) = host.parse::<Ipv4Addr>() {
            if v4.octets()[0] == 127 {
                return true;
            }
        }
        if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            if v6.parse::<Ipv6Addr>() == Ok(Ipv6Addr::LOCALHOST) {
                return true;
            }
        }
        // Step 5. If the user agent conforms to the name resolution rules in [let-localhost-be-localhost] and one of the following is true:
        // - origin's host is "localhost" or "localhost."
        // - origin's host ends with ".localhost" or ".localhost."
        // then return "Potentially Trustworthy".
        // The simulated user agent conforms to those rules.
        if host == "localhost" || host == "localhost." || host.ends_with(".localhost") || host.ends_with(".localhost.")
        {
            return true;
        }
        // Step 6. If origin's scheme is "file", return "Potentially Trustworthy".
        if scheme == "file" {
            return true;
        }
        // Step 7. If origin's scheme component is one which the user agent considers to be authenticated, return "Potentially Trustworthy".
        // The simulated user agent considers no other scheme authenticated.
        // Step 8. If origin has been configured as a trustworthy origin, return "Potentially Trustworthy".
        // The simulated user agent has no such configuration.
        // Step 9. Return "Not Trustworthy".
        false
    }
}

impl fmt::Display for Origin {
    /// The ASCII serialization, except that an opaque origin prints as `opaque#<id>` so traces can tell opaque origins apart.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Opaque(id) => write!(f, "opaque#{id}"),
            // The serialization's steps, written to the formatter without an intermediate string.
            Origin::Tuple { scheme, host, port } => {
                f.write_str(scheme)?;
                f.write_str("://")?;
                f.write_str(host)?;
                match port {
                    Some(port) => write!(f, ":{port}"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// A site: an opaque origin, or a scheme-and-host.
///
/// <https://html.spec.whatwg.org/multipage/browsers.html#site>
///
/// The host of a scheme-and-host is the origin's host's registrable domain when it has one, else the host itself (IP addresses, `localhost`, single-label hosts, public suffixes).
/// Its scheme and host are interned [`Name`]s, like an origin's; equality and order are the derived ones.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Site {
    /// An opaque origin's site is the origin itself, identified by its id.
    Opaque(u32),
    /// A scheme-and-host.
    SchemeAndHost {
        /// The scheme, such as `"https"` (interned, like an origin's: agent cluster keys are copied while creating documents).
        scheme: Name,
        /// The registrable domain, or the host when it has none.
        host: Name,
    },
}

impl Site {
    /// Whether two sites are same site.
    ///
    /// <https://html.spec.whatwg.org/multipage/browsers.html#concept-site-same-site>
    pub fn same_site(&self, other: &Site) -> bool {
        // Two sites, A and B, are said to be same site if either of the following statements is true:
        // - A and B are the same opaque origin.
        // - A and B are both scheme-and-host and their scheme and host are identical.
        self == other
    }
}

impl fmt::Display for Site {
    /// `scheme://host` for a scheme-and-host, `opaque#<id>` for an opaque origin.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Opaque(id) => write!(f, "opaque#{id}"),
            Site::SchemeAndHost { scheme, host } => {
                f.write_str(scheme)?;
                f.write_str("://")?;
                f.write_str(host)
            }
        }
    }
}

/// Whether a URL is potentially trustworthy.
///
/// <https://w3c.github.io/webappsec-secure-contexts/#is-url-trustworthy>
pub fn is_url_potentially_trustworthy(url: &url::Url) -> bool {
    // Step 1. If url is "about:blank" or "about:srcdoc", return "Potentially Trustworthy".
    if url.as_str() == "about:blank" || url.as_str() == "about:srcdoc" {
        return true;
    }
    // Step 2. If url's scheme is "data", return "Potentially Trustworthy".
    if url.scheme() == "data" {
        return true;
    }
    // Step 3. Return the result of executing § 3.1 Is origin potentially trustworthy? on url's origin.
    // An opaque origin's answer does not depend on its id, so a throwaway counter is enough here.
    let mut scratch_opaque = 0;
    Origin::of_url(url, &mut scratch_opaque).is_potentially_trustworthy()
}

/// The registrable domain of a serialized host, or `None` when it has none.
///
/// <https://url.spec.whatwg.org/#host-registrable-domain>
///
/// IP addresses and the empty host (file: origins) have none; for domains the `psl` crate answers with the Public Suffix List, including its default `*` rule, so a single-label host such as `localhost` is its own public suffix and has none.
fn registrable_domain(host: &str) -> Option<&str> {
    if host.is_empty() || host.starts_with('[') || host.parse::<Ipv4Addr>().is_ok() {
        return None;
    }
    psl::domain_str(host)
}

#[cfg(test)]
#[path = "origin/tests.rs"]
mod tests;
