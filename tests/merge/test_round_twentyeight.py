"""Issue 8, twenty-eighth round: real release edits of tune-92 .. (drawn from crawl-41 .. crawl-43
and the new crawl-44), read case by case."""

from __future__ import annotations

from fastapply import apply

_SWAP = '''const isBigEndian = new Uint8Array(new Uint32Array([0x12345678]).buffer)[0] === 0x12;

const swap = (b, n, m) => {
  let i = b[n];
  b[n] = b[m];
  b[m] = i;
};

const swap32 = array => {
  const len = array.length;
  for (let i = 0; i < len; i += 4) {
    swap(array, i, i + 3);
    swap(array, i + 1, i + 2);
  }
};

const swap32LE = array => {
  if (isBigEndian) {
    swap32(array);
  }
};

module.exports = {
  swap32LE: swap32LE
};
'''


def test_a_snippet_that_exports_the_names_of_the_commonjs_tail_ends_the_file() -> None:
    # unicode-trie: `const swap32LE` became `export const swap32LE`, and the file's last lines,
    # `module.exports = {...}`, went. The snippet ends on the function without a marker: the
    # names the tail exported are all exported by the snippet's new line, so the tail is gone.
    snippet = '''  // ... existing code ...
    swap(array, i + 1, i + 2);
  }
};

export const swap32LE = array => {
  if (isBigEndian) {
    swap32(array);
  }
};
'''
    expected = _SWAP.replace("const swap32LE", "export const swap32LE").replace('''
module.exports = {
  swap32LE: swap32LE
};
''', "")
    assert apply(_SWAP, snippet, filename="swap.js").merged_code == expected


def test_a_commonjs_tail_stays_when_the_snippet_exports_only_some_of_its_names() -> None:
    original = _SWAP.replace("  swap32LE: swap32LE\n", "  swap32: swap32,\n  swap32LE: swap32LE\n")
    snippet = '''  // ... existing code ...
    swap(array, i + 1, i + 2);
  }
};

export const swap32LE = array => {
  if (isBigEndian) {
    swap32(array);
  }
};
'''
    expected = original.replace("const swap32LE", "export const swap32LE")
    assert apply(original, snippet, filename="swap.js").merged_code == expected


_SPEC = '''describe("filetype", () => {
    it("filetypeinfo", () => {
        const bytes = [0x89, 0x50, 0x4e, 0x47];
        const result = index_1.filetypeinfo(bytes);
        expect(result).toHaveLength(2);
        expect(result[0]).toHaveProperty("typename");
    });
    it("filetypename", () => {
        const bytes = [0x89, 0x50, 0x4e, 0x47];
        const result = index_1.filetypename(bytes);
        expect(result).toHaveLength(2);
        expect(result).toEqual(["png", "apng"]);
    });
    it("filetypename failure", () => {
        const bytes = [0x89, 0x00, 0x4e, 0x47];
        const result = index_1.filetypename(bytes);
        expect(result).toHaveLength(0);
    });
    it("filetypemime", () => {
        const bytes = [0x89, 0x50, 0x4e, 0x47];
        const result = index_1.filetypemime(bytes);
        expect(result).toHaveLength(2);
    });
    it("filetypename of a buffer", () => {
        const result = index_1.filetypename(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        expect(result).toEqual(["png", "apng"]);
    });
});
'''


def test_a_unique_line_amid_new_code_yields_to_context_that_goes_on_around_its_rival() -> None:
    # magic-bytes: a new test after the old `filetypename` test. The new test's
    # `const result = index_1.filetypename(bytes);` occurs once above the next anchor, like the
    # old test's own line, and outweighed the context after the marker (the old test's last
    # lines, which the file has again further down): paired there, it dropped the old test's end
    # and kept the wrong `toHaveLength(2)`.
    snippet = '''    // ... existing code ...
        expect(result).toHaveLength(2);
        expect(result).toEqual(["png", "apng"]);
    });
    it("detects an ELF binary", () => {
        const bytes = [0x7f, 0x45, 0x4c, 0x46];
        const result = index_1.filetypename(bytes);
        expect(result).toEqual(["ELF"]);
    });
    it("filetypename failure", () => {
    // ... existing code ...
'''
    expected = _SPEC.replace('''    it("filetypename failure", () => {''', '''    it("detects an ELF binary", () => {
        const bytes = [0x7f, 0x45, 0x4c, 0x46];
        const result = index_1.filetypename(bytes);
        expect(result).toEqual(["ELF"]);
    });
    it("filetypename failure", () => {''')
    assert apply(_SPEC, snippet, filename="index.spec.js").merged_code == expected


_CHECK = '''class calendar_sharing(Check):
    def execute(self) -> list:
        findings = []
        if client.policies_fetched:
            report = Report(resource=client.policies)
            sharing = client.policies.external_sharing

            if sharing == "FREE_BUSY_ONLY":
                report.status = "PASS"
                report.status_extended = (
                    f"Sharing is restricted to free/busy "
                    f"in domain {client.domain}."
                )
            else:
                report.status = "FAIL"
                report.status_extended = (
                    f"Sharing is {sharing} "
                    f"in domain {client.domain}."
                )

            findings.append(report)
        return findings
'''


def test_an_elif_of_an_old_if_condition_pairs_with_that_if_below_a_new_first_branch() -> None:
    # prowler: a new first branch above the old `if`, which became `elif`; the snippet shows the
    # old branch's first body line and a marker. Its copy of `report.status = "PASS"` was paired
    # with the new branch's, dropping the rest of the old branch (or refused as ambiguous).
    snippet = '''            # ... existing code ...
            sharing = client.policies.external_sharing

            if client.policies.off_for_everyone:
                report.status = "PASS"
                report.status_extended = (
                    f"Calendar is turned off in domain {client.domain}."
                )
            elif sharing == "FREE_BUSY_ONLY":
                report.status = "PASS"
# ... existing code ...
'''
    expected = _CHECK.replace('''            if sharing == "FREE_BUSY_ONLY":''', '''            if client.policies.off_for_everyone:
                report.status = "PASS"
                report.status_extended = (
                    f"Calendar is turned off in domain {client.domain}."
                )
            elif sharing == "FREE_BUSY_ONLY":''')
    assert apply(_CHECK, snippet, filename="calendar_sharing.py").merged_code == expected



_CONFIG = '''@dataclass
class ClusteringConfig(ComponentConfig):
    parameters: ClusteringParams = field(default_factory=lambda: ClusteringParams())


@dataclass
class MSDDConfig(ComponentConfig):
    model_path: Optional[str] = "diar_msdd_telephonic"
    infer_batch_size: int = 25


@dataclass
class DiarizerConfig(ComponentConfig):
    manifest_filepath: Optional[str] = None
    clustering: ClusteringConfig = field(default_factory=lambda: ClusteringConfig())
    msdd_model: MSDDConfig = field(default_factory=lambda: MSDDConfig())
    asr: ASRConfig = field(default_factory=lambda: ASRConfig())


@dataclass
class InferenceConfig(ComponentConfig):
    diarizer: DiarizerConfig = field(default_factory=lambda: DiarizerConfig())
    device: str = "cpu"

    @classmethod
    def init_config(cls, diar_model_path: str):
        return InferenceConfig(DiarizerConfig(msdd_model=MSDDConfig(model_path=diar_model_path)))
'''

# the snippet shows ClusteringConfig then DiarizerConfig with no marker between (MSDDConfig and
# the `msdd_model` field deleted) and ends there without a marker
_CONFIG_EDIT = '''# ... existing code ...
@dataclass
class ClusteringConfig(ComponentConfig):
    parameters: ClusteringParams = field(default_factory=lambda: ClusteringParams())


@dataclass
class DiarizerConfig(ComponentConfig):
    manifest_filepath: Optional[str] = None
    clustering: ClusteringConfig = field(default_factory=lambda: ClusteringConfig())
    asr: ASRConfig = field(default_factory=lambda: ASRConfig())
'''


def test_a_tail_that_uses_a_definition_the_snippet_drops_goes_with_it() -> None:
    # nemo's diarizer config: the file's last class builds on MSDDConfig, which the snippet
    # deletes: it was deleted with it, not left out
    expected = _CONFIG[:_CONFIG.index("@dataclass\nclass MSDDConfig")] + _CONFIG[
        _CONFIG.index("@dataclass\nclass DiarizerConfig"):_CONFIG.index("    msdd_model:")] \
        + "    asr: ASRConfig = field(default_factory=lambda: ASRConfig())\n"
    assert apply(_CONFIG, _CONFIG_EDIT, filename="diarizer_config.py").merged_code == expected


def test_a_tail_that_does_not_use_the_dropped_definition_stays() -> None:
    original = _CONFIG.replace("msdd_model=MSDDConfig(model_path=diar_model_path)", "device=diar_model_path")
    expected = original[:original.index("@dataclass\nclass MSDDConfig")] + original[
        original.index("@dataclass\nclass DiarizerConfig"):].replace(
        "    msdd_model: MSDDConfig = field(default_factory=lambda: MSDDConfig())\n", "")
    assert apply(original, _CONFIG_EDIT, filename="diarizer_config.py").merged_code == expected


_CRYPTO = """/*! lib v1.0.0 */
'use strict';
import { measure } from './measure.mjs';

export async function decryptEar(key, parts) {
    const iv = base64Decode(parts[2]);
    const plaintext = await crypto.subtle.decrypt({
        name: AES_GCM,
        iv,
        tagLength: 128,
        additionalData: encode(parts[0]),
    }, key, parts[3]);
    return decode(plaintext);
}

export async function decryptJwe(key, jwe) {
    const header = encode(jwe[0]);
    const iv = base64Decode(jwe[2]);
    const tag = base64Decode(jwe[4]);
    const tagLengthBits = tag.byteLength * 8;
    // Concat ciphertext and tag
    const data = concat(jwe[3], tag);
    const plaintext = await crypto.subtle.decrypt({
        name: AES_GCM,
        iv: iv,
        tagLength: tagLengthBits,
        additionalData: header,
    }, key, data);
    return decode(plaintext);
}
"""


def test_a_part_out_of_order_with_a_line_edited_into_a_copy_of_one_elsewhere_goes_to_its_own_place() -> None:
    # msal-browser: the first part (the options of the second call, `tagLength: tagLengthBits`
    # edited into `tagLength: 128`, a line the first call has once) stands before the part that
    # edits the lines above that call. Its two unchanged lines stand one apart, as in the
    # snippet: the middle line is edited in place, not an anchor in the first call. Under a head
    # of one anchor (`'use strict';`), which stays first.
    snippet = """/*! lib v1.1.0 */
'use strict';
// ... existing code ...
        iv: iv,
        tagLength: 128,
        additionalData: header,
// ... existing code ...
    const tag = base64Decode(jwe[4]);
    if (tag.byteLength !== 16) {
        throw new Error("Invalid tag length");
    }
    // Concat ciphertext and tag
    const data = concat(jwe[3], tag);
// ... existing code ...
"""
    expected = _CRYPTO.replace("v1.0.0", "v1.1.0").replace("""    const tagLengthBits = tag.byteLength * 8;
""", """    if (tag.byteLength !== 16) {
        throw new Error("Invalid tag length");
    }
""").replace("tagLength: tagLengthBits,", "tagLength: 128,")
    assert apply(_CRYPTO, snippet, filename="crypto.mjs").merged_code == expected


_DATASET = '''class CTCDataset(Dataset):
    def __init__(self, manifest, with_labels=True):
        self.data = []
        removed = 0
        for item in manifest:
            if with_labels:
                target = self.tokenizer.text_to_ids(item["phonemes"])
                if len(target) > self.max_len:
                    removed += 1
                    continue
                self.data.append(
                    {
                        "graphemes": item[self.grapheme_field],
                        "phonemes": item["phonemes"],
                        "target": target,
                    }
                )
            else:
                self.data.append(
                    {"graphemes": item[self.grapheme_field],}
                )

        logging.info(f"Removed {removed} examples from {manifest}")

    def __len__(self):
        return len(self.data)
'''


def test_lines_that_split_an_original_line_pair_with_it_not_with_a_copy_of_a_piece() -> None:
    # nemo's g2p dataset: the one-line dict of the `else:` branch written over three lines. Its
    # middle line is unique in the original, in the bigger dict of the branch above: paired there,
    # the merge dropped the rest of that dict and the whole `else:` branch.
    snippet = '''            # ... existing code ...
                self.data.append(
                    {
                        "graphemes": item[self.grapheme_field],
                    }
                )

        logging.info(f"Removed {removed} examples from {manifest}")

    def __len__(self):
    # ... existing code ...
'''
    expected = _DATASET.replace('''                    {"graphemes": item[self.grapheme_field],}
''', '''                    {
                        "graphemes": item[self.grapheme_field],
                    }
''')
    assert apply(_DATASET, snippet, filename="ctc.py").merged_code == expected


_KERNEL = '''import torch


class KernelPredictor(torch.nn.Module):
    """Kernel predictor for the location-variable convolutions"""

    def __init__(  # pylint: disable=dangerous-default-value
        self,
        cond_channels,
        conv_in_channels,
        kpnet_dropout=0.0,
        kpnet_nonlinear_activation="LeakyReLU",
        kpnet_nonlinear_activation_params={"negative_slope": 0.1},
    ):
        super().__init__()
        self.conv_in_channels = conv_in_channels
        self.cond_channels = cond_channels
        self.dropout = kpnet_dropout
        self.params = kpnet_nonlinear_activation_params

    def forward(self, c):
        batch, _, cond_length = c.shape
        return self.input_conv(c).view(batch, self.conv_in_channels, cond_length)


class LVCBlock(torch.nn.Module):
    """the location-variable convolutions"""

    def __init__(
        self,
        in_channels,
        cond_channels,
        upsample_ratio,
        conv_layers=4,
    ):
        super().__init__()
        self.in_channels = in_channels
        self.cond_channels = cond_channels
        self.upsample_ratio = upsample_ratio
        self.conv_layers = conv_layers
'''


def test_a_part_out_of_order_is_not_placed_by_a_header_the_file_defines_twice_far_from_its_other_anchor() -> None:
    # coqui-tts: the second part (the class docstring, `def __init__(` without its pylint
    # comment) belongs above the first. Its `def __init__(` text is unique only because the first
    # class's carries the comment; it is the second class's, 20 lines from the docstring.
    snippet = '''        # ...
        kpnet_dropout=0.0,
        kpnet_nonlinear_activation="LeakyReLU",
        kpnet_nonlinear_activation_params=None,
    ):
        if kpnet_nonlinear_activation_params is None:
            kpnet_nonlinear_activation_params = {"negative_slope": 0.1}
        super().__init__()
    # ...
    """Kernel predictor for the location-variable convolutions"""

    def __init__(
        self,
        cond_channels,
        # ...
'''
    expected = _KERNEL.replace("def __init__(  # pylint: disable=dangerous-default-value", "def __init__(").replace(
        '''        kpnet_nonlinear_activation_params={"negative_slope": 0.1},
    ):
''', '''        kpnet_nonlinear_activation_params=None,
    ):
        if kpnet_nonlinear_activation_params is None:
            kpnet_nonlinear_activation_params = {"negative_slope": 0.1}
''')
    assert apply(_KERNEL, snippet, filename="lvc_block.py").merged_code == expected
