//! A strict serde deserializer over a `serde_json::Value`: a struct must be a JSON object (never
//! an array of its fields), and an enum is a string or an object with exactly one key, so that
//! what deserializes is exactly what the JSON Schema allows.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Error as _, IntoDeserializer, Unexpected, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Value};

/// Deserializes from the JSON value it holds.
#[derive(Clone, Copy)]
pub(crate) struct Strict<'de>(pub(crate) &'de Value);

/// How serde should name `value` in an "invalid type" message.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Other("null"),
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (None, Some(i), _) => Unexpected::Signed(i),
            (None, None, Some(f)) => Unexpected::Float(f),
            (None, None, None) => Unexpected::Other("number"),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

impl<'de> IntoDeserializer<'de, Error> for Strict<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for Strict<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => visitor.visit_u64(u),
                (None, Some(i), _) => visitor.visit_i64(i),
                (None, None, Some(f)) => visitor.visit_f64(f),
                (None, None, None) => Err(Error::custom(format!("cannot read the number {n}"))),
            },
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(elements) => visit_array(elements, visitor),
            Value::Object(members) => visit_object(members, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(members) => visit_object(members, visitor),
            other => Err(Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(variant) => visitor.visit_enum(Enum { variant, value: None }),
            Value::Object(members) => {
                let mut iter = members.iter();
                match (iter.next(), iter.next()) {
                    (Some((variant, value)), None) => visitor.visit_enum(Enum { variant, value: Some(value) }),
                    (None, _) => Err(Error::custom(format!(
                        "this object needs exactly one key, but it is empty, expected one of {}",
                        backticked(variants)
                    ))),
                    (Some(_), Some(_)) => {
                        let keys: Vec<&str> = members.keys().take(5).map(String::as_str).collect();
                        let more = if members.len() > keys.len() { ", …" } else { "" };
                        Err(Error::custom(format!(
                            "this object needs exactly one key, but it has {}: {}{more}; \
                             put each in an object of its own",
                            members.len(),
                            backticked(&keys)
                        )))
                    }
                }
            }
            other => Err(Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

/// `` `a`, `b`, `c` ``.
fn backticked(names: &[&str]) -> String {
    names.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
}

fn visit_array<'de, V: Visitor<'de>>(elements: &'de [Value], visitor: V) -> Result<V::Value, Error> {
    let mut access = de::value::SeqDeserializer::new(elements.iter().map(Strict));
    let value = visitor.visit_seq(&mut access)?;
    access.end()?;
    Ok(value)
}

fn visit_object<'de, V: Visitor<'de>>(members: &'de Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
    let mut access = MapAccess { iter: members.iter(), value: None };
    visitor.visit_map(&mut access)
}

/// The members of a JSON object, one at a time.
struct MapAccess<'de> {
    iter: serde_json::map::Iter<'de>,
    value: Option<&'de Value>,
}

impl<'de> de::MapAccess<'de> for MapAccess<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.iter.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(Strict(value)),
            None => Err(Error::custom("a member's value was asked for before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An externally tagged enum: `"variant"` or `{"variant": value}`.
struct Enum<'de> {
    variant: &'de str,
    value: Option<&'de Value>,
}

impl<'de> de::EnumAccess<'de> for Enum<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let variant = seed.deserialize(BorrowedStrDeserializer::<Error>::new(self.variant))?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for Enum<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            None => Ok(()),
            Some(_) => Err(Error::custom(format!("`{0}` takes no value: write \"{0}\"", self.variant))),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        match self.value {
            Some(value) => seed.deserialize(Strict(value)),
            None => Err(Error::custom(format!("`{0}` needs a value: write {{\"{0}\": …}}", self.variant))),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Array(elements)) => visit_array(elements, visitor),
            Some(other) => Err(Error::invalid_type(unexpected(other), &visitor)),
            None => Err(Error::invalid_type(Unexpected::UnitVariant, &visitor)),
        }
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Object(members)) => visit_object(members, visitor),
            Some(other) => Err(Error::invalid_type(unexpected(other), &visitor)),
            None => Err(Error::custom(format!("`{0}` needs an object: write {{\"{0}\": {{…}}}}", self.variant))),
        }
    }
}

#[cfg(test)]
mod tests;
