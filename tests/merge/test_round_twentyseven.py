"""Issue 8, twenty-seventh round: real release edits of tune-88 .. (drawn from crawl-40 / crawl-41
and the new crawl-42 / crawl-43), read case by case."""

from __future__ import annotations

from fastapply import ApplyError, apply

_LOAD = '''def load_model(ckpt_path, device, model_type):
    logger.info("Loading %s model from %s...", model_type, ckpt_path)

    if device == "cpu":
        logger.warning("No GPU being used.")
    if model_type == "text":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "coarse":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "fine":
        ConfigClass = FineGPTConfig
        ModelClass = FineGPT
    else:
        raise NotImplementedError()
    checkpoint = torch.load(ckpt_path, map_location=device)
    gptconf = ConfigClass(**checkpoint["model_args"])
    if model_type == "text":
        vocab = 10_048
    elif model_type == "coarse":
        vocab = 12_096
    elif model_type == "fine":
        vocab = 1_056
    return ModelClass(gptconf), vocab
'''


def test_context_before_a_marker_moves_to_the_branch_it_reads_one_for_one_with() -> None:
    # coqui-tts: two branches with the same body became one condition; the model shows that body
    # and the next branch's header as context before a marker. The body's first copy is under the
    # old first branch, but only the second copy is followed by `elif model_type == "fine":`.
    snippet = '''    # ... existing code ...
    if device == "cpu":
        logger.warning("No GPU being used.")
    if model_type == "text" or model_type == "coarse":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "fine":
    # ... existing code ...
'''
    expected = _LOAD.replace('''    if model_type == "text":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "coarse":
        ConfigClass''', '''    if model_type == "text" or model_type == "coarse":
        ConfigClass''')
    assert apply(_LOAD, snippet, filename="load_model.py").merged_code == expected


def test_context_before_a_marker_that_reads_one_for_one_where_the_walk_paired_it_stays() -> None:
    # the same file, the body shown under an edited first branch followed by its own next line:
    # nothing moves
    snippet = '''    # ... existing code ...
    if device == "cpu":
        logger.warning("No GPU being used.")
    if model_type == "text" or model_type == "chat":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "coarse":
    # ... existing code ...
'''
    expected = _LOAD.replace('if model_type == "text":\n        ConfigClass',
                             'if model_type == "text" or model_type == "chat":\n        ConfigClass')
    assert apply(_LOAD, snippet, filename="load_model.py").merged_code == expected


_MIGRATION = '''# ruff: noqa

from django.db import migrations


def migrate(apps, schema_editor):  # pragma: no cover
    Webhook = apps.get_model("signal_webhooks", "Webhook")
    Webhook.objects.update(signal="CREATE")


class Migration(migrations.Migration):
    operations = [migrations.RunPython(code=migrate)]
'''


def test_a_whole_file_snippet_that_edits_the_first_line_linter_directive_replaces_it() -> None:
    # django-signal-webhooks: `# ruff: noqa` narrowed to the rules it means, in a snippet of the
    # whole file without markers; the old directive is not kept above the new one
    expected = _MIGRATION.replace("# ruff: noqa\n", "# ruff: noqa: ANN001, ARG001, FBT003\n").replace(
        "def migrate(apps, schema_editor):", "def migrate(apps, schema_editor) -> None:")
    assert apply(_MIGRATION, expected, filename="0004_migrate.py").merged_code == expected


_EXPORT = '''class Export:
    def update(self, stats, limits):
        for plugin in self.plugins():
            if isinstance(stats[plugin], dict):
                stats[plugin].update(limits[plugin])
                # Remove the <plugin>_disable field
                stats[plugin].pop(f"{plugin}_disable", None)
                # user is a special field that should not be exported
                # rename it to user_<plugin>
                if "user" in stats[plugin]:
                    stats[plugin][f"user_{plugin}"] = stats[plugin].pop("user")
            elif isinstance(stats[plugin], list):
                for i in stats[plugin]:
                    i.update(limits[plugin])
                    # Remove the <plugin>_disable field
                    i.pop(f"{plugin}_disable", None)
                    # user is a special field that should not be exported
                    # rename it to user_<plugin>
                    if "user" in i:
                        i[f"user_{plugin}"] = i.pop("user")
            else:
                continue

            plugin_stats = stats[plugin]
            values = []
            self.write(plugin, plugin_stats, values)
'''


def test_a_new_loop_header_over_only_a_comment_is_refused_not_merged_empty() -> None:
    # glances: the merge put a new `for` header with only a comment line under it above the old
    # branches; tree-sitter-python parses that, Python rejects it (a comment is no statement)
    snippet = '''        # ...
        for plugin in self.plugins():
            plugin_stats = self.prepare(plugin, stats[plugin], limits[plugin])
            if isinstance(plugin_stats, dict):
                # user is a special field that should not be exported
                # rename it to user_<plugin>
                if "user" in plugin_stats:
                    plugin_stats[f"user_{plugin}"] = plugin_stats.pop("user")
            elif isinstance(plugin_stats, list):
                for i in plugin_stats:
                    # user is a special field that should not be exported
            # ...
                continue

            values = []
        # ...
'''
    try:
        merged = apply(_EXPORT, snippet, filename="export.py").merged_code
    except ApplyError as error:
        assert error.code in ("syntax_regressed", "ambiguous_anchor")
        return
    compile(merged, "export.py", "exec")  # (a merge, if any, must at least be Python)


_WRAPPERS = '''class StreamIOThreadWrapper:
    class Filler:
        def __init__(self, fd):
            self.fd = fd

        def close(self):
            if hasattr(self.fd, "close"):
                self.fd.close()

    class Reader:
        def stop(self):
            self.running = False
            self.buffer.close()

            if hasattr(self.fd, "close"):
                try:
                    self.fd.close()
                except Exception:
                    pass

    def __init__(self, session, fd, timeout=30):
        self.buffer = RingBuffer(session.get_option("ringbuffer-size"))
'''


def test_a_block_header_as_context_with_a_new_body_up_to_the_next_anchor_replaces_the_old_body() -> None:
    # streamlink: `try:` / `except Exception: pass` around a call became `with suppress(Exception):`;
    # the model shows the `if` above it as context after a column-0 marker (its text is in the
    # file twice), then the new body, then the next method's header
    snippet = '''# ...
            if hasattr(self.fd, "close"):
                with suppress(Exception):
                    self.fd.close()

    def __init__(self, session, fd, timeout=30):
        self.buffer = RingBuffer(session.get_option("ringbuffer-size"))
'''
    expected = _WRAPPERS.replace('''                try:
                    self.fd.close()
                except Exception:
                    pass''', '''                with suppress(Exception):
                    self.fd.close()''')
    assert apply(_WRAPPERS, snippet, filename="wrappers.py").merged_code == expected


_RULE = '''import { isRegExp, isString } from '../../utils/validateTypes.mjs';
import getRuleSelector from '../../utils/getRuleSelector.mjs';
import isKeyframeSelector from '../../utils/isKeyframeSelector.mjs';
import isStandardSyntaxRule from '../../utils/isStandardSyntaxRule.mjs';

const rule = (primary) => {
	return (root, result) => {
		root.walkRules((ruleNode) => {
			if (!isStandardSyntaxRule(ruleNode)) {
				return;
			}

			if (ruleNode.selectors.some(isKeyframeSelector)) {
				return;
			}

			parseSelector(getRuleSelector(ruleNode), result, ruleNode)?.walkClasses((classNode) => {
				check(classNode, primary);
			});
		});
	};
};

export default rule;
'''


def test_an_import_dropped_while_the_merged_file_still_uses_its_name_is_refused() -> None:
    # stylelint: `isKeyframeSelector` gave way to `isKeyframeRule`; the model's context `return;`
    # / `}` after the marker paired with the keyframe block's own end, so the new `if` went in
    # below the old one, which still calls the name the new import no longer binds
    snippet = '''import { isRegExp, isString } from '../../utils/validateTypes.mjs';
import getRuleSelector from '../../utils/getRuleSelector.mjs';
import isKeyframeRule from '../../utils/isKeyframeRule.mjs';
import isStandardSyntaxRule from '../../utils/isStandardSyntaxRule.mjs';
				// ... existing code ...
				return;
			}

			if (isKeyframeRule(ruleNode)) {
				return;
			}

			parseSelector(getRuleSelector(ruleNode), result, ruleNode)?.walkClasses((classNode) => {
				// ... existing code ...
'''
    expected = _RULE.replace("import isKeyframeSelector from '../../utils/isKeyframeSelector.mjs';",
                             "import isKeyframeRule from '../../utils/isKeyframeRule.mjs';").replace(
        "if (ruleNode.selectors.some(isKeyframeSelector)) {", "if (isKeyframeRule(ruleNode)) {")
    try:
        merged = apply(_RULE, snippet, filename="index.mjs").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor" and "isKeyframeSelector" in error.message
        return
    assert merged == expected


def test_an_import_dropped_with_its_last_use_merges() -> None:
    # the same edit shown with the old condition's line itself: the name goes with its use
    snippet = '''import { isRegExp, isString } from '../../utils/validateTypes.mjs';
import getRuleSelector from '../../utils/getRuleSelector.mjs';
import isKeyframeRule from '../../utils/isKeyframeRule.mjs';
import isStandardSyntaxRule from '../../utils/isStandardSyntaxRule.mjs';
// ... existing code ...
			if (!isStandardSyntaxRule(ruleNode)) {
				return;
			}

			if (isKeyframeRule(ruleNode)) {
				return;
			}
// ... existing code ...
'''
    expected = _RULE.replace("import isKeyframeSelector from '../../utils/isKeyframeSelector.mjs';",
                             "import isKeyframeRule from '../../utils/isKeyframeRule.mjs';").replace(
        "if (ruleNode.selectors.some(isKeyframeSelector)) {", "if (isKeyframeRule(ruleNode)) {")
    assert apply(_RULE, snippet, filename="index.mjs").merged_code == expected


_CONFIG = '''def _apply_config(parser, config, keys):
    overrides = {}
    for key in keys:
        value = config.get(key)
        if value is None:
            continue
        existing = parser.get_default(key)
        if existing in (None, "", []):
            overrides[key] = value
    if overrides:
        parser.set_defaults(**overrides)


def main(argv=None):
    return 0
'''


def test_a_trivial_line_after_a_marker_stays_context_above_new_lines_that_unwrap_the_anchor() -> None:
    # openbb-cli: the `if existing in (...)` test gave way to an env-var check; the model shows the
    # `continue` above it after a marker, the new lines, then `overrides[key] = value` moved out of
    # the dropped `if` (one level shallower than in the file)
    snippet = '''# ... existing code ...
            continue
        env_var = _CONFIG_SCALAR_ENV_VARS.get(key)
        if env_var and os.environ.get(env_var):
            continue
        overrides[key] = value
    if overrides:
        parser.set_defaults(**overrides)
# ... existing code ...
'''
    expected = _CONFIG.replace('''        existing = parser.get_default(key)
        if existing in (None, "", []):
            overrides[key] = value''', '''        env_var = _CONFIG_SCALAR_ENV_VARS.get(key)
        if env_var and os.environ.get(env_var):
            continue
        overrides[key] = value''')
    assert apply(_CONFIG, snippet, filename="cli.py").merged_code == expected
