#!/usr/bin/env python3
"""Structural validation of a SARIF 2.1.0 log (python3 stdlib only).

The official JSON schema (sarif-schema-2.1.0.json, OASIS) is not vendored
here; this checks, for every object type krefcheck emits, the rules that
schema states for it: allowed properties (additionalProperties: false),
required properties, value types, enums and minimums. Objects of other
types (allowed by the schema but not emitted by krefcheck) are rejected,
so a new kind of output needs a new entry below.

usage: sarif_check.py FILE.sarif  -> prints "sarif ok: N results" or the
first problems, exit status 1.
"""
import json
import re
import sys

S, I, B, A, O = "string", "integer", "boolean", "array", "object"
LEVELS = ["none", "note", "warning", "error"]
# type name -> (properties {name: spec}, required, anyOf-required groups)
# spec: a type string, ("ref", T), ("array", spec, min_items), ("map", spec),
#       ("enum", [...]), ("int", minimum), ("uri", absolute?)
T = {
    "log": ({"$schema": ("uri", True), "version": ("enum", ["2.1.0"]),
             "runs": ("array", ("ref", "run"), 0), "inlineExternalProperties": None,
             "properties": ("ref", "propertyBag")}, ["version", "runs"], []),
    "run": ({"tool": ("ref", "tool"), "invocations": ("array", ("ref", "invocation"), 0),
             "conversion": None, "language": S, "versionControlProvenance": None,
             "originalUriBaseIds": ("map", ("ref", "artifactLocation")), "artifacts": None,
             "logicalLocations": None, "graphs": None,
             "results": ("array", ("ref", "result"), 0), "automationDetails": None,
             "runAggregates": None, "baselineGuid": S, "redactionTokens": None,
             "defaultEncoding": S, "defaultSourceLanguage": S, "newlineSequences": None,
             "columnKind": ("enum", ["utf16CodeUnits", "unicodeCodePoints"]),
             "externalPropertyFileReferences": None, "threadFlowLocations": None,
             "taxonomies": None, "addresses": None, "translations": None, "policies": None,
             "webRequests": None, "webResponses": None, "specialLocations": None,
             "properties": ("ref", "propertyBag")}, ["tool"], []),
    "tool": ({"driver": ("ref", "toolComponent"), "extensions": None,
              "properties": ("ref", "propertyBag")}, ["driver"], []),
    "toolComponent": ({"guid": S, "name": S, "organization": S, "product": S,
                       "productSuite": S, "shortDescription": ("ref", "mfms"),
                       "fullDescription": ("ref", "mfms"), "fullName": S, "version": S,
                       "semanticVersion": S, "dottedQuadFileVersion": S,
                       "releaseDateUtc": S, "downloadUri": ("uri", True),
                       "informationUri": ("uri", True), "globalMessageStrings": None,
                       "notifications": None,
                       "rules": ("array", ("ref", "reportingDescriptor"), 0),
                       "taxa": None, "locations": None, "language": S, "contents": None,
                       "isComprehensive": B, "localizedDataSemanticVersion": S,
                       "minimumRequiredLocalizedDataSemanticVersion": S,
                       "associatedComponent": None, "translationMetadata": None,
                       "supportedTaxonomies": None, "properties": ("ref", "propertyBag")},
                      ["name"], []),
    "reportingDescriptor": ({"id": S, "deprecatedIds": None, "guid": S,
                             "deprecatedGuids": None, "name": S, "deprecatedNames": None,
                             "shortDescription": ("ref", "mfms"),
                             "fullDescription": ("ref", "mfms"), "messageStrings": None,
                             "defaultConfiguration": ("ref", "reportingConfiguration"),
                             "helpUri": ("uri", True), "help": ("ref", "mfms"),
                             "relationships": None, "properties": ("ref", "propertyBag")},
                            ["id"], []),
    "reportingConfiguration": ({"enabled": B, "level": ("enum", LEVELS), "rank": None,
                                "parameters": ("ref", "propertyBag"),
                                "properties": ("ref", "propertyBag")}, [], []),
    "mfms": ({"text": S, "markdown": S, "properties": ("ref", "propertyBag")}, ["text"], []),
    "message": ({"text": S, "markdown": S, "id": S, "arguments": ("array", S, 0),
                 "properties": ("ref", "propertyBag")}, [], [["text"], ["id"]]),
    "result": ({"ruleId": S, "ruleIndex": ("int", -1), "rule": None,
                "kind": ("enum", ["notApplicable", "pass", "fail", "review", "open",
                                  "informational"]),
                "level": ("enum", LEVELS), "message": ("ref", "message"),
                "analysisTarget": ("ref", "artifactLocation"),
                "locations": ("array", ("ref", "location"), 0), "guid": S,
                "correlationGuid": S, "occurrenceCount": ("int", 1),
                "partialFingerprints": ("map", S), "fingerprints": ("map", S),
                "stacks": None, "codeFlows": ("array", ("ref", "codeFlow"), 0),
                "graphs": None, "graphTraversals": None,
                "relatedLocations": ("array", ("ref", "location"), 0), "suppressions": None,
                "baselineState": ("enum", ["new", "unchanged", "updated", "absent"]),
                "rank": None, "attachments": None, "hostedViewerUri": ("uri", True),
                "workItemUris": None, "provenance": None, "fixes": None, "taxa": None,
                "webRequest": None, "webResponse": None,
                "properties": ("ref", "propertyBag")}, ["message"], []),
    "location": ({"id": ("int", -1), "physicalLocation": ("ref", "physicalLocation"),
                  "logicalLocations": ("array", ("ref", "logicalLocation"), 0),
                  "message": ("ref", "message"), "annotations": None, "relationships": None,
                  "properties": ("ref", "propertyBag")}, [], []),
    "physicalLocation": ({"address": None, "artifactLocation": ("ref", "artifactLocation"),
                          "region": ("ref", "region"), "contextRegion": ("ref", "region"),
                          "properties": ("ref", "propertyBag")}, [],
                         [["address"], ["artifactLocation"]]),
    "artifactLocation": ({"uri": ("uri", False), "uriBaseId": S, "index": ("int", -1),
                          "description": ("ref", "message"),
                          "properties": ("ref", "propertyBag")}, [], []),
    "region": ({"startLine": ("int", 1), "startColumn": ("int", 1), "endLine": ("int", 1),
                "endColumn": ("int", 1), "charOffset": ("int", -1), "charLength": ("int", 0),
                "byteOffset": ("int", -1), "byteLength": ("int", 0), "snippet": None,
                "message": ("ref", "message"), "sourceLanguage": S,
                "properties": ("ref", "propertyBag")}, [],
               [["startLine"], ["charOffset"], ["byteOffset"]]),
    "logicalLocation": ({"name": S, "index": ("int", -1), "fullyQualifiedName": S,
                         "decoratedName": S, "parentIndex": ("int", -1), "kind": S,
                         "properties": ("ref", "propertyBag")}, [], []),
    "codeFlow": ({"message": ("ref", "message"),
                  "threadFlows": ("array", ("ref", "threadFlow"), 1),
                  "properties": ("ref", "propertyBag")}, ["threadFlows"], []),
    "threadFlow": ({"id": S, "message": ("ref", "message"), "initialState": None,
                    "immutableState": None,
                    "locations": ("array", ("ref", "threadFlowLocation"), 1),
                    "properties": ("ref", "propertyBag")}, ["locations"], []),
    "threadFlowLocation": ({"index": ("int", -1), "location": ("ref", "location"),
                            "stack": None, "kinds": ("array", S, 0), "taxa": None,
                            "module": S, "state": None, "nestingLevel": ("int", 0),
                            "executionOrder": ("int", -1), "executionTimeUtc": S,
                            "importance": ("enum", ["important", "essential", "unimportant"]),
                            "webRequest": None, "webResponse": None,
                            "properties": ("ref", "propertyBag")}, [], []),
    "invocation": ({"commandLine": S, "arguments": ("array", S, 0), "responseFiles": None,
                    "startTimeUtc": S, "endTimeUtc": S, "exitCode": I,
                    "ruleConfigurationOverrides": None,
                    "notificationConfigurationOverrides": None,
                    "toolExecutionNotifications": ("array", ("ref", "notification"), 0),
                    "toolConfigurationNotifications": ("array", ("ref", "notification"), 0),
                    "exitCodeDescription": S, "exitSignalName": S, "exitSignalNumber": I,
                    "processStartFailureMessage": S, "executionSuccessful": B, "machine": S,
                    "account": S, "processId": I, "executableLocation": None,
                    "workingDirectory": ("ref", "artifactLocation"),
                    "environmentVariables": None, "stdin": None, "stdout": None,
                    "stderr": None, "stdoutStderr": None,
                    "properties": ("ref", "propertyBag")}, ["executionSuccessful"], []),
    "notification": ({"locations": ("array", ("ref", "location"), 0),
                      "message": ("ref", "message"), "level": ("enum", LEVELS),
                      "threadId": I, "timeUtc": S, "exception": None, "descriptor": None,
                      "associatedRule": None, "properties": ("ref", "propertyBag")},
                     ["message"], []),
}
PY = {S: str, I: int, B: bool, O: dict, A: list}
URI_ABS = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$")
URI_REF = re.compile(r"^[^\s]*$")
errors = []


def check(v, spec, where):
    if spec is None:
        errors.append(f"{where}: krefcheck does not emit this property; extend sarif_check.py")
    elif isinstance(spec, str):
        if not isinstance(v, PY[spec]) or (spec == I and isinstance(v, bool)):
            errors.append(f"{where}: expected {spec}")
    elif spec[0] == "ref":
        if spec[1] == "propertyBag":
            if not isinstance(v, dict):
                errors.append(f"{where}: expected a property bag object")
            return
        obj(v, spec[1], where)
    elif spec[0] == "array":
        if not isinstance(v, list):
            errors.append(f"{where}: expected an array")
            return
        if len(v) < spec[2]:
            errors.append(f"{where}: needs at least {spec[2]} items")
        for i, x in enumerate(v):
            check(x, spec[1], f"{where}[{i}]")
    elif spec[0] == "map":
        if not isinstance(v, dict):
            errors.append(f"{where}: expected an object")
            return
        for k, x in v.items():
            check(x, spec[1], f"{where}.{k}")
    elif spec[0] == "enum":
        if v not in spec[1]:
            errors.append(f"{where}: {v!r} not one of {spec[1]}")
    elif spec[0] == "int":
        if not isinstance(v, int) or isinstance(v, bool) or v < spec[1]:
            errors.append(f"{where}: expected an integer >= {spec[1]}")
    elif spec[0] == "uri":
        if not isinstance(v, str) or not (URI_ABS if spec[1] else URI_REF).match(v):
            errors.append(f"{where}: not a valid {'absolute ' if spec[1] else ''}URI: {v!r}")


def obj(v, t, where):
    props, required, any_of = T[t]
    if not isinstance(v, dict):
        errors.append(f"{where}: expected a {t} object")
        return
    for k in required:
        if k not in v:
            errors.append(f"{where}: {t} lacks required '{k}'")
    if any_of and not any(all(k in v for k in g) for g in any_of):
        errors.append(f"{where}: {t} needs one of {any_of}")
    for k, x in v.items():
        if k not in props:
            errors.append(f"{where}: property '{k}' not allowed in {t}")
        else:
            check(x, props[k], f"{where}.{k}")


def main():
    log = json.load(open(sys.argv[1]))
    obj(log, "log", "$")
    # Cross-references the schema cannot express.
    for r, run in enumerate(log.get("runs") or []):
        rules = run["tool"]["driver"].get("rules", [])
        ids = [x["id"] for x in rules]
        if len(set(ids)) != len(ids):
            errors.append(f"runs[{r}]: duplicate rule ids")
        for i, res in enumerate(run.get("results", [])):
            ri = res.get("ruleIndex")
            if ri is not None and (ri >= len(rules) or rules[ri]["id"] != res.get("ruleId")):
                errors.append(f"runs[{r}].results[{i}]: ruleIndex does not match ruleId")
            for loc in res.get("locations", []):
                base = loc.get("physicalLocation", {}).get("artifactLocation", {}).get("uriBaseId")
                if base and base not in run.get("originalUriBaseIds", {}):
                    errors.append(f"runs[{r}].results[{i}]: unknown uriBaseId {base}")
    if errors:
        for e in errors[:20]:
            print("sarif error:", e)
        sys.exit(1)
    n = sum(len(run.get("results", [])) for run in log["runs"])
    print(f"sarif ok: {n} results")


main()
