"""Every diagnostic code, with what it means: one catalogue for SARIF rules,
the configuration file (which may only name codes that exist) and
docs/diagnostics.md (checked against it by a test).

Most codes are libsdformat's ``ErrorCode`` names, so that a user can match
what we report against ``gz sdf --check``; the rest are ours (marked).
"""

from __future__ import annotations

from typing import NamedTuple

DOCS_URL = "https://github.com/sdformat-lsp/sdformat-lsp/blob/main/docs/diagnostics.md"


class Code(NamedTuple):
    short: str  # one line: what is wrong
    full: str  # what the code covers and what usually fixes it
    ours: bool = False  # not a libsdformat ErrorCode


CODES: dict[str, Code] = {
    "FILE_READ": Code(
        "The file cannot be read",
        "The file does not exist, cannot be opened, is not a regular file, is not UTF-8 text, or a model.config entry names something unusable.",
    ),
    "XML_ERROR": Code(
        "The XML is not well-formed",
        "The document breaks an XML rule that libsdformat's XML parser enforces (or, as a warning, one it tolerates).",
    ),
    "PARSING_ERROR": Code(
        "The document is not SDFormat",
        "The root element is not <sdf> (or <robot> for URDF), or the structure cannot be read as SDFormat.",
    ),
    "CONVERSION_ERROR": Code(
        "The version cannot be converted",
        "The declared SDFormat version is newer than the newest this tool knows, or a conversion between versions fails.",
    ),
    "DUPLICATE_NAME": Code(
        "Two siblings share a name",
        "Frames, links, joints, models and other named siblings must have unique names within their scope.",
    ),
    "RESERVED_NAME": Code(
        "A reserved name is used",
        "Names starting and ending with '__' (such as __model__) and 'world' are reserved by SDFormat.",
    ),
    "ATTRIBUTE_MISSING": Code(
        "A required attribute is missing", "The element needs an attribute (such as name) that it does not have."
    ),
    "ATTRIBUTE_INVALID": Code(
        "An attribute value is invalid",
        "The attribute's value is not one the specification allows (a version, a name, an enumeration).",
    ),
    "ATTRIBUTE_DEPRECATED": Code(
        "A deprecated attribute is used", "The attribute is deprecated in the declared version."
    ),
    "ATTRIBUTE_INCORRECT_TYPE": Code(
        "An attribute value has the wrong type",
        "The attribute's value cannot be read as its type (a number, a boolean, a pose).",
    ),
    "ELEMENT_MISSING": Code(
        "A required element is missing", "The element needs a child element that it does not have."
    ),
    "ELEMENT_INVALID": Code(
        "An element is not allowed here",
        "The element is not part of its parent in the declared version, or its value is out of range.",
    ),
    "ELEMENT_DEPRECATED": Code(
        "A deprecated or newer element is used", "The element is deprecated in, or newer than, the declared version."
    ),
    "ELEMENT_INCORRECT_TYPE": Code(
        "An element is in the wrong place or has the wrong type",
        "The element's value cannot be read as its type, or it appears where SDFormat does not allow it.",
    ),
    "ELEMENT_ERROR": Code("An element is in error", "A generic problem with an element."),
    "URI_INVALID": Code("A URI is malformed", "An include or resource URI cannot be parsed."),
    "URI_LOOKUP": Code(
        "A URI cannot be found",
        "An included model or resource is not found in the resource paths, the environment's paths or the Fuel cache.",
    ),
    "DIRECTORY_NONEXISTANT": Code("A directory does not exist", "A directory named by the document does not exist."),
    "MODEL_CANONICAL_LINK_INVALID": Code(
        "The canonical link is invalid",
        "The model's canonical_link does not name a link of the model, or the model has no link to be canonical.",
    ),
    "MODEL_WITHOUT_LINK": Code(
        "A model has no link",
        "A model needs at least one link (directly or in a nested model), unless it is static and empty.",
    ),
    "NESTED_MODELS_UNSUPPORTED": Code(
        "Nested models are not supported here",
        "The declared version does not allow models inside models in this place.",
    ),
    "LINK_INERTIA_INVALID": Code(
        "The inertia is not physical",
        "Mass and moments of inertia must be positive and satisfy the triangle inequality.",
    ),
    "JOINT_CHILD_LINK_INVALID": Code(
        "A joint's child is invalid",
        "The joint's <child> does not name a link, frame or model reachable from the joint.",
    ),
    "JOINT_PARENT_LINK_INVALID": Code(
        "A joint's parent is invalid",
        "The joint's <parent> does not name a link, frame or model reachable from the joint.",
    ),
    "JOINT_PARENT_SAME_AS_CHILD": Code(
        "A joint connects a link to itself", "The joint's parent and child resolve to the same link."
    ),
    "FRAME_ATTACHED_TO_INVALID": Code(
        "attached_to names nothing", "The frame's attached_to does not name a frame in the same scope."
    ),
    "FRAME_ATTACHED_TO_CYCLE": Code(
        "attached_to forms a cycle", "Frames are attached to each other in a cycle, so none reaches a link."
    ),
    "FRAME_ATTACHED_TO_GRAPH_ERROR": Code(
        "A frame is not attached to a link", "Following attached_to from the frame does not reach a link."
    ),
    "POSE_RELATIVE_TO_INVALID": Code(
        "relative_to names nothing", "The pose's relative_to does not name a frame in the same scope."
    ),
    "POSE_RELATIVE_TO_CYCLE": Code(
        "relative_to forms a cycle", "Poses are expressed relative to each other in a cycle, so none can be resolved."
    ),
    "POSE_RELATIVE_TO_GRAPH_ERROR": Code(
        "A pose cannot be resolved", "Following relative_to from the pose does not reach the scope's frame."
    ),
    "ROTATION_SNAP_CONFIG_ERROR": Code(
        "Rotation snapping is misconfigured", "The rotation snapping settings are invalid."
    ),
    "STRING_READ": Code("A string cannot be read", "A string given to the parser cannot be read."),
    "MODEL_PLACEMENT_FRAME_INVALID": Code(
        "The placement frame is invalid", "The include's or model's placement_frame does not name a frame of the model."
    ),
    "VERSION_DEPRECATED": Code("The version is deprecated", "The declared SDFormat version is deprecated."),
    "MERGE_INCLUDE_UNSUPPORTED": Code(
        "This include cannot be merged", 'An include with merge="true" is used where merging is not supported.'
    ),
    "PARAMETER_ERROR": Code(
        "A value is invalid", "An element's value cannot be read as its type or is out of the allowed range."
    ),
    "UNKNOWN_PARAMETER_TYPE": Code("A value has an unknown type", "The type of a value is not one SDFormat knows."),
    "FATAL_ERROR": Code("A fatal error", "The document cannot be processed."),
    "WARNING": Code("A warning", "A generic warning."),
    "JOINT_AXIS_EXPRESSED_IN_INVALID": Code(
        "expressed_in names nothing", "The joint axis's expressed_in does not name a frame in the joint's scope."
    ),
    "JOINT_AXIS_MIMIC_INVALID": Code(
        "A mimic joint is invalid", "The joint axis's <mimic> names a joint or axis that cannot be mimicked."
    ),
    # ours
    "INTERNAL_ERROR": Code(
        "An internal error", "The analysis hit a limit or a bug; the message says which. Please report it.", True
    ),
    "INCLUDE_CYCLE": Code("Includes form a cycle", "A file includes itself, directly or through other files.", True),
    "INCLUDE_DEPTH": Code("Includes are nested too deeply", "The chain of includes exceeds the depth limit.", True),
    "MODEL_PARSER_ERROR": Code(
        "A model parser cannot read the included file",
        "A registered model parser (docs/includes.md) rejected the file an <include> names with a ParseError; the related location is where in that file.",
        True,
    ),
    "MODEL_PARSER_FAULT": Code(
        "A model parser failed",
        "A registered model parser raised an unexpected exception, did not answer in time, could not be imported, or returned something that is not a usable interface model: a bug of that parser; the include is not read.",
        True,
    ),
    "MJCF_ERROR": Code(
        "An MJCF model has a mistake",
        "An included MuJoCo model (MJCF) has a value MuJoCo refuses (an unknown class, two orientations, a malformed number, an unreadable include), found by the built-in MJCF reader.",
        True,
    ),
    "MJCF_REFERENCE_UNKNOWN": Code(
        "An MJCF model names an element it does not define",
        "An attribute of a MuJoCo model (an actuator's joint, a sensor's site, an equality's body1, a contact exclusion's body, a tendon's joint, a geom's material or mesh...) names no element of that kind in the model: MuJoCo refuses to compile it. The nearest defined name is suggested.",
        True,
    ),
    "INCLUDE_LIMIT": Code(
        "Includes expand to too many models",
        "The includes of the document expand to more model instances than the limit (files including each other several times grow exponentially); the models past it are not checked.",
        True,
    ),
    "LINK_MASS_NOT_POSITIVE": Code(
        "No link of a moving model has mass",
        "Every link of a model that is not static has zero mass: it needs mass to be simulated, or <static>true</static>.",
        True,
    ),
    "LINK_MASSLESS_MOVING": Code(
        "A joint moves a massless link",
        "A link with zero mass is moved by a joint: physics engines cannot simulate a massless moving body.",
        True,
    ),
    "LINK_INERTIA_SINGULAR": Code(
        "An inertia is not positive definite",
        "A link with mass has an inertia with a principal moment that is not positive: it turns freely about that axis.",
        True,
    ),
    "FORMAT": Code(
        "The document cannot be formatted",
        "The formatter refuses a document whose markup it cannot lay out without changing it (unclosed or mismatched elements).",
        True,
    ),
    "URI_REMOTE": Code(
        "A Fuel model is not cached locally",
        "The include names a Fuel model that is not in the local Fuel cache; the network is never used.",
        True,
    ),
    "MESH_LOOKUP": Code(
        "A mesh file cannot be found",
        "A <mesh> <uri> (or a URDF mesh filename) names a file that is not found where Gazebo looks: Gazebo draws nothing for it. The message lists the places searched.",
        True,
    ),
    "URDF_LINK_INVALID": Code("A URDF link cannot be read completely", "urdfdom would ignore this link.", True),
    "URDF_MATERIAL": Code("A URDF material is invalid", "urdfdom only logs these problems.", True),
    "URDF_UNSUPPORTED": Code(
        "A URDF feature is not converted",
        "The URDF uses something the conversion to SDFormat does not carry over.",
        True,
    ),
    "URDF_LUMPED_REFERENCE": Code(
        "A URDF name refers to a link lumped away",
        "A joint or frame in a <gazebo> block names a link (or fixed joint) removed by fixed-joint reduction: libsdformat 12 refuses the file, newer versions read it.",
        True,
    ),
    "URDF_XACRO": Code("The file is a xacro template", "Expand the template (xacro) before checking it.", True),
    "URDF_XACRO_LEFTOVER": Code(
        "Xacro elements are left in a URDF file",
        "A .urdf file is read as URDF whatever it holds; URDF readers ignore xacro elements, so expand the template instead.",
        True,
    ),
    "XACRO_ERROR": Code(
        "Xacro cannot expand the document here",
        "ROS's xacro would stop here: an undefined property, argument or macro, a macro parameter missing or unknown, a bad expression, an include or package not found, bad XML. The message names the fix.",
        True,
    ),
    "XACRO_LIMIT": Code(
        "The xacro expansion is over a bound",
        "A macro calls itself without end, files include each other, or macros multiply each other's output past the expansion's budget: the expansion stops there.",
        True,
    ),
    "XACRO_WARNING": Code(
        "Xacro ignores something here",
        "An attribute xacro ignores, an include pattern matching no file, a property hiding one of xacro's names, or a message of xacro.warning().",
        True,
    ),
    "PLUGIN_PARAMETER_UNKNOWN": Code(
        "A plugin does not read this parameter",
        "The <plugin>'s sources (gz-sim, gz-gui, gazebo_ros_pkgs; docs/plugins.md) never read an element of this name, so Gazebo ignores it: usually a misspelling (the quick fix offers the nearest name) or a parameter of another version of the plugin.",
        True,
    ),
    "PLUGIN_PARAMETER_INVALID": Code(
        "A plugin parameter's value is not of its type",
        "The plugin reads the parameter as a number, boolean, vector or pose, and the text cannot be read as one, so the plugin does not get the value written.",
        True,
    ),
    "PLUGIN_REFERENCE_INVALID": Code(
        "A plugin parameter names a joint, link or model that is not there",
        "The plugin looks the name up among the enclosing model's joints (links, nested models) and finds nothing: the plugin does nothing with it. Usually a renamed or misspelt name.",
        True,
    ),
    "PLUGIN_PARAMETER_MISSING": Code(
        "A plugin parameter it needs is missing",
        "The plugin's sources give up when this parameter is absent: they log an error and stop configuring, or"
        " return from every step while the joint (link, model) it names is not found (DiffDrive without"
        " `<left_joint>`), so the plugin does nothing.",
        True,
    ),
    "UNUSED_SUPPRESSION": Code(
        "A suppression comment suppresses nothing",
        "A <!-- sdformat-lsp: disable ... --> comment names a code that no diagnostic it covers has: remove it or fix the code.",
        True,
    ),
    "SUPPRESSION_INVALID": Code(
        "A suppression comment cannot be read",
        "A comment starting with 'sdformat-lsp:' is not 'disable-next-line CODE[,CODE]' or 'disable CODE[,CODE]'.",
        True,
    ),
}


def describe(code: str) -> Code:
    """The catalogue entry of ``code``; a generic one for a code not listed (never raises)."""
    return CODES.get(code) or Code(code.replace("_", " ").capitalize(), f"Diagnostics with code {code}.", True)


def help_uri(code: str) -> str:
    return f"{DOCS_URL}#{code.lower()}"


__all__ = ["CODES", "Code", "DOCS_URL", "describe", "help_uri"]
