//! Every rule the spec must satisfy, one `check_*` function each, all listed in [`validate`].
//!
//! Rules report into `cx` and never stop early, so one run shows every problem. After
//! `validate` returns with no errors, every reference in the model resolves and emitters may
//! look items up with `expect("BUG: ...")`. The one rule over generated identifiers (E0141)
//! belongs to the naming layer (`emit::names`), which runs it on a valid model.

mod facets;
mod gateway;
mod http;
pub(crate) use http::is_token;
mod index;
mod refs;
mod shapes;
mod timeline;
mod values;
mod webhooks;

pub use facets::FACETS;
pub use values::CHANGE_KINDS;

use crate::diag::Diagnostics;
use crate::model::{Index, Model};

/// Runs every rule over the model.
pub fn validate(cx: &mut Diagnostics, model: &Model) {
    let index = Index::build(model);
    index::check_duplicate_ids(cx, &index);
    refs::check_references(cx, model, &index);
    refs::check_typed_references(cx, model, &index);
    refs::check_condition_arity(cx, model, &index);
    values::check_permission_bits(cx, model);
    values::check_flag_bits(cx, model);
    values::check_error_codes(cx, model);
    values::check_enum_values(cx, model);
    values::check_prefixes(cx, model);
    values::check_vocabularies(cx, model);
    values::check_audience_token_kind(cx, model);
    values::check_routes(cx, model);
    values::check_path_templates(cx, model);
    values::check_path_params(cx, model);
    values::check_min_max(cx, model);
    values::check_constraint_types(cx, model);
    values::check_error_body_fields(cx, model);
    values::check_wire_names(cx, model);
    values::check_response_constraints(cx, model);
    values::check_enum_repr_basis(cx, model);
    values::check_class_value_semantics(cx, model);
    values::check_case_facts(cx, model);
    shapes::check_discriminator_type(cx, model);
    shapes::check_union_variants(cx, model);
    shapes::check_union_tags(cx, model);
    shapes::check_tag_placement(cx, model);
    shapes::check_untagged_order(cx, model);
    shapes::check_enum_subsets(cx, model);
    shapes::check_literal_values(cx, model);
    shapes::check_examples(cx, model);
    shapes::check_map_keys(cx, model);
    shapes::check_class_fields_cross_c(cx, model);
    shapes::check_patterns(cx, model);
    shapes::check_float_bounds(cx, model);
    shapes::check_extends_cycles(cx, model);
    shapes::check_extends_redefinitions(cx, model);
    http::check_response_statuses(cx, model);
    http::check_response_shorthand(cx, model);
    http::check_bodiless_statuses(cx, model);
    http::check_response_bodies(cx, model);
    http::check_header_types(cx, model);
    http::check_null_parameters(cx, model);
    http::check_header_names(cx, model);
    http::check_anonymous_endpoints(cx, model);
    http::check_reserved_token_kind(cx, model);
    http::check_endpoint_scopes(cx, model);
    http::check_array_styles(cx, model);
    http::check_body_formats(cx, model);
    http::check_media_types(cx, model);
    http::check_pagination(cx, model);
    http::check_rate_limits(cx, model);
    http::check_idempotency_keys(cx, model);
    http::check_retry_policy(cx, model);
    http::check_streams(cx, model);
    http::check_stream_endpoints(cx, model);
    webhooks::check_webhooks(cx, model);
    gateway::check_gateways(cx, model);
    facets::check_facet_names(cx, model);
    facets::check_given_and_not_shown(cx, model);
    facets::check_required_facets(cx, model);
    facets::check_assumed_given(cx, model);
    facets::check_assumed_keys(cx, model);
    facets::check_assumed_name_presence(cx, model);
    timeline::check_lifetimes(cx, model);
    timeline::check_rule_variants(cx, model);
    timeline::check_unused_changes(cx, model);
    timeline::check_correction_lifetimes(cx, model);
}

#[cfg(test)]
mod tests {
    use super::validate;
    use crate::model::project::{points, project};

    #[test]
    fn every_projection_of_the_fixtures_and_the_shipped_spec_is_a_valid_model() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let load = |dir: &str| crate::load_spec(&root.join(dir), "spec").unwrap_or_else(|_| panic!("{dir} is invalid")).model;
        for m in [load("tests/fixtures/minimal"), load("tests/fixtures/shapes"), load("spec")] {
            for at in points([&m]) {
                let projected = project(&m, at);
                let mut cx = crate::diag::Diagnostics::new();
                validate(&mut cx, &projected);
                let errors: Vec<_> = cx.finish().err().unwrap_or_default();
                assert!(errors.is_empty(), "{} at {at}: {errors:?}", m.platform.name);
            }
        }
    }
}
