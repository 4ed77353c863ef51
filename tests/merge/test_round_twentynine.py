"""Issue 8, twenty-ninth round: real release edits of tune-95 (the twenty-eighth round's check-26)
and later batches, read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

_JWA = '''var bufferEqual = require('buffer-equal-constant-time');
var Buffer = require('safe-buffer').Buffer;
var crypto = require('crypto');

function createHmacSigner(bits) {
  return function sign(thing, secret) {
    var hmac = crypto.createHmac('sha' + bits, secret);
    return hmac.digest('base64');
  }
}

function createHmacVerifier(bits) {
  return function verify(thing, signature, secret) {
    var computedSig = createHmacSigner(bits)(thing, secret);
    return bufferEqual(Buffer.from(signature), Buffer.from(computedSig));
  }
}

function createKeySigner(bits) {
  return function sign(thing, privateKey) {
    return privateKey;
  }
}
'''


def test_a_declaration_above_the_snippet_that_the_snippet_declares_again_goes() -> None:
    # jwa: the snippet starts at the file's second line, with no marker above, and declares
    # `var bufferEqual;` again further down (now loaded lazily): the first line went
    snippet = '''var Buffer = require('safe-buffer').Buffer;
// ... existing code ...
    return hmac.digest('base64');
  }
}

var bufferEqual;
function timingSafeEqual(a, b) {
  if (!bufferEqual) {
    bufferEqual = require('buffer-equal-constant-time');
  }
  return bufferEqual(a, b);
}

function createHmacVerifier(bits) {
  return function verify(thing, signature, secret) {
    var computedSig = createHmacSigner(bits)(thing, secret);
    return timingSafeEqual(Buffer.from(signature), Buffer.from(computedSig));
  }
}
// ... existing code ...
'''
    merged = apply(_JWA, snippet, filename="index.js").merged_code
    assert merged.startswith("var Buffer = require('safe-buffer').Buffer;\nvar crypto")
    assert merged.count("var bufferEqual") == 1
    assert "function createKeySigner(bits) {" in merged


def test_a_declaration_above_the_snippet_that_the_snippet_does_not_declare_stays() -> None:
    snippet = '''var Buffer = require('safe-buffer').Buffer;
// ... existing code ...
    return hmac.digest('base64');
  }
}

function timingSafeEqual(a, b) {
  return bufferEqual(a, b);
}
// ... existing code ...
'''
    merged = apply(_JWA, snippet, filename="index.js").merged_code
    assert merged.startswith("var bufferEqual = require('buffer-equal-constant-time');\nvar Buffer")


_COMPOSER = '''export class Composer<C> {
  /**
   * Registers middleware for handling specified commands.
   */
  command(
    command: Triggers<C>,
    ...fns: NonemptyReadonlyArray<
      Middleware<
        NarrowedContext<C> & CommandContextExtn
      >
    >
  ) {
    return this.use(Composer.command<C>(command, ...fns))
  }
''' + ''.join(f'''
  /**
   * Registers middleware for {name} updates.
   */
  {name}(
    triggers: Triggers<C>,
    ...fns: MatchedMiddleware<C, '{name}'>
  ) {{
    return this.use(Composer.{name}<C>(triggers, ...fns))
  }}
''' for name in ("action", "inlineQuery", "gameQuery", "reaction", "drop", "email", "url", "textLink")) + '''
  /**
   * Registers a middleware for handling /help
   */
  help(
    ...fns: NonemptyReadonlyArray<
      Middleware<NarrowedContext<C>>
    >
  ) {
    return this.command('help', ...fns)
  }

  /**
   * Registers a middleware for handling /settings
   */
  settings(
    ...fns: NonemptyReadonlyArray<
      Middleware<NarrowedContext<C>>
    >
  ) {
    return this.command('settings', ...fns)
  }

  /**
   * Registers a middleware for handling /start
   */
  start(
    ...fns: NonemptyReadonlyArray<
      Middleware<
        NarrowedContext<C> & CommandContextExtn
      >
    >
  ) {
    return this.command('start', ...fns)
  }
''' + ''.join(f'''
  {name}(...fns: ReadonlyArray<Middleware<C>>) {{
    return this.use(Composer.{name}(...fns))
  }}
''' for name in ("optional", "lazy", "fork", "tap", "branch", "guard", "entity", "mention", "phone", "hashtag",
                 "cashtag", "spoiler", "use", "middleware", "chatType", "privateChat", "groupChat", "channelPost")) + '''}
'''


def test_an_edited_line_the_file_has_far_above_does_not_anchor_the_lines_before_the_next_anchor() -> None:
    # telegraf: `help(`'s signature rewritten into the same lines as `command(`'s (and `start(`'s).
    # Once `help(`'s return anchors the part, the middle line is in the range above it once, 90
    # lines up: paired there, the methods between `command(` and `help(` would have gone with no
    # marker to keep them
    snippet = '''// ... existing code ...
    ...fns: NonemptyReadonlyArray<
      Middleware<
        NarrowedContext<C> & CommandContextExtn
      >
    >
  ) {
    return this.command('help', ...fns)
  }
// ... existing code ...
'''
    expected = _COMPOSER.replace('''  help(
    ...fns: NonemptyReadonlyArray<
      Middleware<NarrowedContext<C>>
    >''', '''  help(
    ...fns: NonemptyReadonlyArray<
      Middleware<
        NarrowedContext<C> & CommandContextExtn
      >
    >''')
    assert apply(_COMPOSER, snippet, filename="composer.ts").merged_code == expected


_EVENTS = '''class Resolver:
    def _recv(self, event_type, respect_end_stream_signal=True):
        events = []
        while True:
            for ev in self._pending():
                if isinstance(ev, event_type):
                    if not respect_end_stream_signal:
                        return events
                    if hasattr(ev, "stream_ended") and ev.stream_ended:
                        return events
                    elif hasattr(ev, "stream_ended") is False:
                        return events

        return events

    def close(self):
        self._quic.close()
'''

_WRAPPED = _EVENTS.replace('''                    if hasattr(ev, "stream_ended") and ev.stream_ended:
''', '''                    if (
                        hasattr(ev, "stream_ended") and ev.stream_ended
                    ):  # Defensive: stream-data callers do not wait for end-of-stream here.
''')


def test_a_condition_rewritten_over_three_lines_is_one_edited_line_walking_down() -> None:
    # urllib3-future: after the three new lines, `return events` is the copy right below the old
    # condition, not the one three lines on (which would drop the `elif` branch)
    snippet = '''    # ... existing code ...
                    if not respect_end_stream_signal:
                        return events
                    if (
                        hasattr(ev, "stream_ended") and ev.stream_ended
                    ):  # Defensive: stream-data callers do not wait for end-of-stream here.
                        return events
            # ... existing code ...
'''
    assert apply(_EVENTS, snippet, filename="resolver.py").merged_code == _WRAPPED


def test_a_condition_rewritten_over_three_lines_is_one_edited_line_walking_up() -> None:
    # the same edit shown from a marker down to the `elif` line: walking up from it, the three new
    # lines stand for the old condition and the `return events` above them is context
    snippet = '''    # ... existing code ...
                        return events
                    if (
                        hasattr(ev, "stream_ended") and ev.stream_ended
                    ):  # Defensive: stream-data callers do not wait for end-of-stream here.
                        return events
                    elif hasattr(ev, "stream_ended") is False:
    # ... existing code ...
'''
    assert apply(_EVENTS, snippet, filename="resolver.py").merged_code == _WRAPPED


_PKCS = '''from scapy.config import conf
from scapy.error import warning
if conf.crypto_valid:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    from cryptography.hazmat.primitives.hashes import HashAlgorithm


#####################################################################
# Some helpers
#####################################################################

def pkcs_os2ip(s):
    return int(s.hex(), 16)


#####################################################################
# Hash and padding helpers
#####################################################################

_get_hash = None
if conf.crypto_valid:
    def _get_padding(padStr):
        return padding.PKCS1v15()
'''


def test_a_ruler_after_a_deleted_line_pairs_with_the_ruler_below_it() -> None:
    # scapy's pkcs1: the import above the first ruler went; the ruler, a line the file has four
    # times, still pairs with the one right below the deleted line rather than becoming new code
    snippet = '''# ... rest of the code ...
if conf.crypto_valid:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding


#####################################################################
# ... rest of the code ...
#####################################################################

if conf.crypto_valid:
    def _get_padding(padStr):
# ... rest of the code ...
'''
    expected = _PKCS.replace("    from cryptography.hazmat.primitives.hashes import HashAlgorithm\n", "") \
        .replace("_get_hash = None\n", "")
    assert apply(_PKCS, snippet, filename="pkcs1.py").merged_code == expected


_NETBIOS = '''class NBNS_ADD_ENTRY(Packet):
    fields_desc = [
        BitEnumField("G", 0, 1, {0: "Unique name"}),
        IPField("NB_ADDRESS", "127.0.0.1")
    ]


class NBNSQueryResponse(Packet):
    name = "NBNS query response"
    fields_desc = [NetBIOSNameField("RR_NAME", "windows")]

    def mysummary(self):
        return "NBNSQueryResponse"


class NBNSNodeStatusResponseService(Packet):
    name = "NBNS Node Status Response Service"
    fields_desc = [StrFixedLenField("NETBIOS_NAME", "WINDOWS", 15)]

    def default_payload_class(self, payload):
        return conf.padding_layer


class NBNSNodeStatusResponse(Packet):
    name = "NBNS Node Status Response"
'''


def test_a_method_written_into_another_class_is_a_copy_not_a_move() -> None:
    # scapy's netbios: NBNS_ADD_ENTRY gets the `default_payload_class` that another class has
    # further down; that class keeps its own
    snippet = '''# ... existing code ...
        IPField("NB_ADDRESS", "127.0.0.1")
    ]

    def default_payload_class(self, payload):
        return conf.padding_layer


class NBNSQueryResponse(Packet):
    name = "NBNS query response"
    # ... existing code ...
'''
    expected = _NETBIOS.replace('''        IPField("NB_ADDRESS", "127.0.0.1")
    ]
''', '''        IPField("NB_ADDRESS", "127.0.0.1")
    ]

    def default_payload_class(self, payload):
        return conf.padding_layer
''')
    try:
        merged = apply(_NETBIOS, snippet, filename="netbios.py").merged_code
    except ApplyError:
        pytest.fail("refused")
    assert merged == expected


_DATAFORM = '''from google.cloud.dataform_v1 import gapic_version as package_version

__version__ = package_version.__version__

from .types.dataform import (
    CancelWorkflowInvocationRequest,
''' + "".join(f"    Message{k}Request,\n" for k in range(40)) + '''    MoveRepositoryRequest,
    PipelineConfig,
    Workspace,
    WriteFileRequest,
    WriteFileResponse,
)

if hasattr(api_core, "check_python_version") and hasattr(
    api_core, "check_dependency_versions"
):  # pragma: NO COVER
    api_core.check_python_version("google.cloud.dataform_v1")
    api_core.check_dependency_versions("google.cloud.dataform_v1")
else:  # pragma: NO COVER
    try:
''' + "".join(f"        check_{k} = _get_version('dep-{k}')\n" for k in range(36)) + '''    except Exception:
        pass

__all__ = (
    "CancelWorkflowInvocationRequest",
''' + "".join(f'    "Message{k}Request",\n' for k in range(40)) + '''    "MoveRepositoryRequest",
    "PipelineConfig",
    "Workspace",
    "WriteFileRequest",
    "WriteFileResponse",
)
'''


def test_whole_statements_deleted_between_a_part_and_the_next_anchor_are_a_deletion() -> None:
    # google-cloud-dataform: the version checks under the import list went; the snippet shows the
    # list's last line, `)` and then `__all__`: the far copy of `WriteFileResponse,` is its place
    snippet = '''# ... existing code ...
    MoveRepositoryRequest,
    OAuthConfig,
    PipelineConfig,
    # ... existing code ...
    WriteFileResponse,
)

__all__ = (
    "CancelWorkflowInvocationRequest",
    # ... existing code ...
'''
    start = _DATAFORM.index("if hasattr(api_core")
    expected = (_DATAFORM[:start] + _DATAFORM[_DATAFORM.index("__all__ = ("):]) \
        .replace("    MoveRepositoryRequest,\n", "    MoveRepositoryRequest,\n    OAuthConfig,\n", 1)
    assert apply(_DATAFORM, snippet, filename="__init__.py").merged_code == expected


_HTS = '''#ifndef HTS_DEFS_H
#define HTS_DEFS_H

#if defined __GNUC__
#define HTSLIB_EXPORT __attribute__((visibility("default")))
#else
#define HTSLIB_EXPORT
#endif

#endif
'''


def test_a_preprocessor_else_and_endif_stay_glued_to_the_function_above_them() -> None:
    # pysam's hts_defs.h: `#else` and `#endif` are no comments above a definition, nor siblings
    # of the function before them: no blank line goes above them
    snippet = '''/* ... existing code ... */
#define HTSLIB_EXPORT
#endif

// Prefetch implementations.
#ifdef HAVE___BUILTIN_PREFETCH
static inline void hts_prefetch(void *p) {
    __builtin_prefetch(p);
}
#else
static inline void hts_prefetch(void *p) {
    *(volatile char *)p;
}
#endif

#endif
'''
    expected = _HTS.replace('''#endif

#endif
''', '''#endif

// Prefetch implementations.
#ifdef HAVE___BUILTIN_PREFETCH
static inline void hts_prefetch(void *p) {
    __builtin_prefetch(p);
}
#else
static inline void hts_prefetch(void *p) {
    *(volatile char *)p;
}
#endif

#endif
''')
    assert apply(_HTS, snippet, filename="hts_defs.h").merged_code == expected


_KRON = '''from jax import Array


def _helper(x):
    return x


def _batched_kron(a: Array, b: Array) -> Array:
    """Batched Kronecker product."""
    return a * b


def other(x):
    return x
'''


def test_overload_stubs_stay_glued_to_their_implementation() -> None:
    # rigetti-quax: `@overload` stubs written right above the function they type; the file's two
    # blank lines above a top-level function stay above the first stub, not between them
    snippet = '''# ... existing code ...
    return x


@overload
def _batched_kron(a: np.ndarray, b: np.ndarray) -> np.ndarray: ...
@overload
def _batched_kron(a: Array, b: Array) -> Array: ...
def _batched_kron(a: ArrayT, b: ArrayT) -> ArrayT:
    """Batched Kronecker product."""
# ... existing code ...
'''
    expected = _KRON.replace('''def _batched_kron(a: Array, b: Array) -> Array:
''', '''@overload
def _batched_kron(a: np.ndarray, b: np.ndarray) -> np.ndarray: ...
@overload
def _batched_kron(a: Array, b: Array) -> Array: ...
def _batched_kron(a: ArrayT, b: ArrayT) -> ArrayT:
''')
    assert apply(_KRON, snippet, filename="basis.py").merged_code == expected


def test_a_line_of_spaces_in_new_code_stays_as_written() -> None:
    # webexteamssdk: the new statement is followed by a line of four spaces, as the release wrote it
    original = '''def user_agent():
    data = {}
    data["cpu"] = machine()

    # Add the organization.
    if be_geo_id:
        data["organization"]["be_geo_id"] = be_geo_id
    return data
'''
    snippet = '''def user_agent():
    # ... existing code ...
    data["cpu"] = machine()

    data["organization"] = {}
    \n    # Add the organization.
    # ... existing code ...
'''
    expected = original.replace('''    data["cpu"] = machine()

''', '''    data["cpu"] = machine()

    data["organization"] = {}
    \n''')
    assert apply(original, snippet, filename="restsession.py").merged_code == expected


_TABLE = '''Formats
=======

   +---------------+-----------+-------+-------------------------------+
   | MOL2          | mol2      |  r/w  | Tripos molecular structure    |
   |               |           |       | :mod:`coordinates.MOL2`       |
   +---------------+-----------+-------+-------------------------------+
   | DL_Poly       | config    |  r    | DL_Poly ascii config file     |
   |               |           |       | :mod:`coordinates.DLPOLY`     |
   +---------------+-----------+-------+-------------------------------+
   | DL_Poly       | history   |  r    | DL_Poly ascii history file    |
   |               |           |       | :mod:`coordinates.DLPOLY`     |
   +---------------+-----------+-------+-------------------------------+
   | MMTF          | mmtf      |  r    | Macromolecular Transmission   |
   |               |           |       | :mod:`coordinates.MMTF`       |
   +---------------+-----------+-------+-------------------------------+

.. _`chemfiles`: https://chemfiles.org/
'''


def test_a_row_inserted_under_a_row_like_another_keeps_both() -> None:
    # mdanalysis' format table: the new MMCIF row goes under the second DLPOLY row, whose last
    # two lines the first one has too; the rows above stay
    snippet = '''   # ... existing code ...
   |               |           |       | :mod:`coordinates.DLPOLY`     |
   +---------------+-----------+-------+-------------------------------+
   | MMCIF         | cif,      |  r    | Single frame of coordinates   |
   |               | mmcif     |       | in the PDBx/mmCIF format      |
   |               |           |       | (requires gemmi_).            |
   |               |           |       | :mod:`coordinates.MMCIF`      |
   +---------------+-----------+-------+-------------------------------+
   | MMTF          | mmtf      |  r    | Macromolecular Transmission   |
   |               |           |       | :mod:`coordinates.MMTF`       |
   +---------------+-----------+-------+-------------------------------+
# ... existing code ...
.. _`chemfiles`: https://chemfiles.org/
'''
    expected = _TABLE.replace('''   | MMTF ''', '''   | MMCIF         | cif,      |  r    | Single frame of coordinates   |
   |               | mmcif     |       | in the PDBx/mmCIF format      |
   |               |           |       | (requires gemmi_).            |
   |               |           |       | :mod:`coordinates.MMCIF`      |
   +---------------+-----------+-------+-------------------------------+
   | MMTF ''')
    assert apply(_TABLE, snippet, filename="formats.rst").merged_code == expected


_WORKSPACE = '''from mlflow.store.tracking.dbmodels.models import (
    SqlReviewQueueUser,
    SqlRun,
    SqlScorer,
    SqlSpanCostDailyRollup,
    SqlTraceInfo,
)


class WorkspaceStore:
    def _filter(self, session, model, query, workspace):
        if model in (
            SqlRun,
            SqlScorer,
        ):
            return query.join(SqlExperiment).filter(SqlExperiment.workspace == workspace)

        if model in (
            SqlGatewaySecret,
            SqlGatewayEndpoint,
        ):
            return query.filter(model.workspace == workspace)

        if model is SqlGatewayEndpointBinding:
            return self._filter_endpoint_binding_query(session, query)

        if model is SqlGatewayEndpointModelMapping:
            return query.join(SqlGatewayEndpoint).filter(SqlGatewayEndpoint.workspace == workspace)

        if model in (
            SqlMCPServer,
            SqlMCPServerVersion,
            SqlMCPServerTag,
            SqlMCPServerVersionTag,
            SqlMCPServerAlias,
            SqlMCPAccessEndpoint,
        ):
            return query.filter(model.workspace == workspace)

        return query

    def _initialize_store_state(self):
        self._validate_artifact_root_configuration()
'''


def test_one_context_line_that_fits_two_places_is_refused_when_one_reading_loses_whole_blocks() -> None:
    # mlflow: a new `if model in (...)` block under one context line, `return query.filter(...)`,
    # which ends the first and the last block alike. Read at the first, the rewrite loses the two
    # blocks between; read at the last, it inserts. Both fit: refused, naming the context line
    snippet = '''        # ... existing code ...
            return query.filter(model.workspace == workspace)

        if model in (
            SqlSkill,
            SqlSkillVersion,
            SqlSkillTag,
            SqlSkillVersionTag,
            SqlSkillAlias,
        ):
            return query.filter(model.workspace == workspace)

        return query

    def _initialize_store_state(self):
        self._validate_artifact_root_configuration()
    # ... existing code ...
    SqlRun,
    SqlScorer,
    SqlSkill,
    SqlSpanCostDailyRollup,
    # ... existing code ...
'''
    with pytest.raises(ApplyError) as refused:
        apply(_WORKSPACE, snippet, filename="workspace_store.py")
    assert refused.value.code == "ambiguous_anchor" and "snippet line 2" in str(refused.value)


_HALO = '''class LogarithmicHaloPotential:
    def _evaluate(self, R, z, phi=0.0, t=0.0):
        if self.isNonAxi:
            return 1.0
        else:
            return 0

    def _dens(self, R, z, phi=0.0, t=0.0):
        if self.isNonAxi:
            R2 = R**2.0
            Rt2 = R2 * (1.0 - self._1m1overb2 * numpy.sin(phi) ** 2.0)
            denom = 1.0 / (Rt2 + (z / self._q) ** 2.0 + self._core2)
            return denom / 4.0 / numpy.pi
        else:
            return 1.0 / 4.0 / numpy.pi / self._q**2.0

    def _R2deriv(self, R, z, phi=0.0, t=0.0):
        return -1.0 / (R**2.0 + self._core2)
'''


def test_a_python_function_split_into_a_wrapper_and_a_helper_keeps_the_old_body_in_the_helper() -> None:
    # galpy: `_dens` now wraps a new `_dens_body`, which starts with the old body's first lines and a
    # marker for the rest of it (no closing line to pair in Python: the old block ends where the
    # new header dedents)
    snippet = '''            # ... existing code ...
            return 0

    def _dens(self, R, z, phi=0.0, t=0.0):
        edge = numpy.isinf(R) | numpy.isinf(z)
        if not numpy.any(edge):
            return self._dens_body(R, z, phi)
        return numpy.where(edge, 0.0, self._dens_body(R, z, phi))[()]

    def _dens_body(self, R, z, phi):
        if self.isNonAxi:
            R2 = R**2.0
            # ... existing code ...
'''
    expected = _HALO.replace('''    def _dens(self, R, z, phi=0.0, t=0.0):
''', '''    def _dens(self, R, z, phi=0.0, t=0.0):
        edge = numpy.isinf(R) | numpy.isinf(z)
        if not numpy.any(edge):
            return self._dens_body(R, z, phi)
        return numpy.where(edge, 0.0, self._dens_body(R, z, phi))[()]

    def _dens_body(self, R, z, phi):
''')
    assert apply(_HALO, snippet, filename="halo.py").merged_code == expected


def test_a_function_inserted_above_the_files_own_endif_keeps_the_blank_line_before_it() -> None:
    # triton's sm_20_atomic_functions.hpp (dev split): the `#endif` closes a conditional of the file,
    # not one the new lines open; the model left out the blank line the file has above it
    original = '''#if defined(__cplusplus) && defined(__CUDACC__)

static float atomicAdd(float *address, float val)
{
  return __fAtomicAdd(address, val);
}

#endif /* __cplusplus && __CUDACC__ */
'''
    snippet = '''// ... rest of the code ...
static float atomicAdd(float *address, float val)
{
  return __fAtomicAdd(address, val);
}

static int clampValue(int value, int low, int high) {
  return value < low ? low : value > high ? high : value;
}
#endif /* __cplusplus && __CUDACC__ */
'''
    expected = original.replace('''}

#endif''', '''}

static int clampValue(int value, int low, int high) {
  return value < low ? low : value > high ? high : value;
}

#endif''')
    assert apply(original, snippet, filename="atomic.hpp").merged_code == expected


def test_a_body_rewritten_down_to_the_comment_above_the_anchor_is_no_far_candidate() -> None:
    # Pillow's BmpImagePlugin (dev split): `_save`'s body rewritten to two lines; the part goes on
    # with the comment lines above the registry. The header's last line, far above that anchor, is
    # its place: what goes between is the old body and nothing else
    body = "".join(f"    value_{k} = compute({k})\n" for k in range(40))
    original = f'''def _dib_save(im, fp, filename):
    _save(im, fp, filename, False)


def _save(
    im, fp, filename, bitmap_header=True
) -> None:
    try:
        rawmode = SAVE[im.mode]
    except KeyError as e:
        raise OSError(im.mode) from e
{body}    ImageFile._save(
        im, fp, [rawmode]
    )


#
# --------------------------------------------------------------------
# Registry


Image.register_open(BmpImageFile.format, BmpImageFile, _accept)
''' + "".join(f"Image.register_extension(BmpImageFile.format, '.b{k}')\n" for k in range(60))
    snippet = '''# ... remaining implementation unchanged ...
) -> None:
    logger.debug("_save is not supported here")
    return None


#
# --------------------------------------------------------------------
# Registry


Image.register_open(BmpImageFile.format, BmpImageFile, _accept)
# ... remaining implementation unchanged ...
'''
    start, end = original.index("    try:\n"), original.index("\n\n#\n")
    expected = original[:start] + '''    logger.debug("_save is not supported here")
    return None
''' + original[end:]
    assert apply(original, snippet, filename="BmpImagePlugin.py").merged_code == expected
