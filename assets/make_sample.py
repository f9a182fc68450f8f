#!/usr/bin/env python3
"""Generate the bundled sample knowledge base and sample questionnaire.

Everything produced here describes a FICTIONAL company, "Lumen Ledger, Inc.",
an invoicing / accounts-payable SaaS hosted on AWS.  The output is used for
demos, tests and latency benchmarks.

Usage:
    python assets/make_sample.py [OUTDIR]

OUTDIR defaults to the ``sample`` folder next to this script.  Output:

    OUTDIR/kb/Security_Overview.pdf
    OUTDIR/kb/Business_Continuity_Plan.pdf
    OUTDIR/kb/Privacy_and_Data_Handling.docx
    OUTDIR/kb/Past_Answers.xlsx
    OUTDIR/kb/Incident_Response.md
    OUTDIR/questionnaire/Sample_Security_Questionnaire.xlsx
    OUTDIR/questionnaire/Sample_Security_Questionnaire.csv
    OUTDIR/questions.txt

Generation is deterministic: all dates are fixed, document metadata is fixed
and ZIP containers (docx/xlsx) are rewritten with fixed member timestamps, so
rerunning the script with the same library versions yields identical bytes.

Key facts (kept consistent across every document):
    * Production regions: AWS us-east-1 (US and rest of world) and eu-west-1
      (EU/EEA customers).  Encrypted backups replicate to us-west-2 and
      eu-central-1 respectively, so EU data never leaves the EU.
    * MFA enforced for all employees (Okta), SAML 2.0 SSO, RBAC, quarterly
      access reviews, access removed within 24 hours of termination.
    * AES-256 at rest via AWS KMS, TLS 1.2+ in transit, keys rotated yearly,
      no BYOK.
    * Weekly vulnerability scans, annual third-party penetration test (last
      February 2026), critical vulnerabilities fixed within 7 days / high 30 /
      medium 90; no paid bug bounty.
    * Logs centralised and kept 1 year (365 days); 24x7 on-call; critical
      alerts acknowledged within 15 minutes.
    * RPO 1 hour, RTO 4 hours; daily encrypted backups kept 35 days;
      annual DR test, last in March 2026.
    * Severity levels SEV-1..SEV-4; customers notified within 72 hours of a
      confirmed breach; post-mortem within 5 business days for SEV-1/SEV-2.
    * Customer data deleted within 30 days of contract end; no selling of
      data; no data stored in China; DPO Anja Keller, privacy@lumenledger.example.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import re
import sys
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile, ZipInfo

import pymupdf
from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.writer.excel import ExcelWriter

FIXED_DT = dt.datetime(2026, 4, 1, 9, 0, 0)
FIXED_ZIP_DT = (2026, 4, 1, 9, 0, 0)
PDF_DATE = "D:20260401090000+00'00'"
COMPANY = "Lumen Ledger, Inc."
GENERATOR = "Lumen Ledger sample generator (assets/make_sample.py)"


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def normalize_zip(path: Path) -> None:
    """Rewrite a ZIP container (docx/xlsx) with fixed member timestamps."""
    with ZipFile(path) as zin:
        members = [(info.filename, zin.read(info.filename)) for info in zin.infolist()]
    tmp = path.with_suffix(path.suffix + ".tmp")
    with ZipFile(tmp, "w", ZIP_DEFLATED) as zout:
        for name, data in members:
            info = ZipInfo(name, date_time=FIXED_ZIP_DT)
            info.compress_type = ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zout.writestr(info, data)
    os.replace(tmp, path)


def norm_ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------------------
# PDF layout engine (manual line wrapping + TextWriter, never truncates)
# ---------------------------------------------------------------------------

PAGE_W, PAGE_H = 612.0, 792.0          # US Letter
MARGIN_L, MARGIN_R = 72.0, 72.0
BODY_TOP, BODY_BOTTOM = 84.0, 728.0
TEXT_W = PAGE_W - MARGIN_L - MARGIN_R

BLACK = (0, 0, 0)
GREY = (0.35, 0.35, 0.35)
NAVY = (0.08, 0.2, 0.4)

FONT_REG = pymupdf.Font("helv")
FONT_BOLD = pymupdf.Font("hebo")

# kind: (font, size, line height, space before, space after, color, indent)
STYLES = {
    "title": (FONT_BOLD, 24.0, 30.0, 0.0, 4.0, NAVY, 0.0),
    "subtitle": (FONT_REG, 13.0, 18.0, 0.0, 4.0, NAVY, 0.0),
    "meta": (FONT_REG, 9.5, 13.0, 0.0, 14.0, GREY, 0.0),
    "h1": (FONT_BOLD, 14.0, 18.0, 12.0, 5.0, NAVY, 0.0),
    "h2": (FONT_BOLD, 11.5, 15.0, 6.0, 3.0, BLACK, 0.0),
    "p": (FONT_REG, 10.5, 14.5, 0.0, 7.0, BLACK, 0.0),
    "bullet": (FONT_REG, 10.5, 14.5, 0.0, 4.0, BLACK, 14.0),
}


def wrap(text: str, font: pymupdf.Font, size: float, width: float) -> list[str]:
    words = text.split()
    lines: list[str] = []
    cur = ""
    for w in words:
        cand = w if not cur else cur + " " + w
        if font.text_length(cand, fontsize=size) <= width:
            cur = cand
        else:
            if cur:
                lines.append(cur)
            if font.text_length(w, fontsize=size) > width:
                raise ValueError(f"word too long for line: {w!r}")
            cur = w
    if cur:
        lines.append(cur)
    return lines


def layout(blocks: list[tuple[str, str]]) -> tuple[list[list[tuple]], int]:
    """Flow blocks onto pages. Returns (pages of draw ops, number of paragraphs
    split across a page break). A draw op is (x, baseline_y, text, font, size, color)."""
    pages: list[list[tuple]] = [[]]
    y = BODY_TOP
    splits = 0

    def new_page():
        nonlocal y
        pages.append([])
        y = BODY_TOP

    for i, (kind, text) in enumerate(blocks):
        font, size, lh, before, after, color, indent = STYLES[kind]
        x = MARGIN_L + indent
        lines = wrap(text, font, size, TEXT_W - indent)
        if y > BODY_TOP:
            y += before
        if kind in ("h1", "h2"):
            # keep heading together with (at least) two lines of what follows
            need = lh * len(lines) + after
            if i + 1 < len(blocks):
                nkind = blocks[i + 1][0]
                nfont, nsize, nlh, nbefore, *_ = STYLES[nkind]
                need += nbefore + 2 * nlh
            if y + need > BODY_BOTTOM:
                new_page()
        remaining = lines
        first_chunk = True
        while remaining:
            avail = int((BODY_BOTTOM - y) // lh)
            if len(remaining) <= avail:
                take = len(remaining)
            elif avail < 2:
                new_page()
                continue
            else:
                take = avail
                if len(remaining) - take < 2:       # avoid a single widow line
                    take = len(remaining) - 2
                if take < 2:
                    new_page()
                    continue
            for j, line in enumerate(remaining[:take]):
                base = y + lh * 0.78
                if kind == "bullet" and first_chunk and j == 0:
                    pages[-1].append((MARGIN_L + 3, base, "\u2022", FONT_REG, size, color))
                pages[-1].append((x, base, line, font, size, color))
                y += lh
            remaining = remaining[take:]
            if remaining:
                splits += 1
                new_page()
            first_chunk = False
        y += after
    return pages, splits


def render_pdf(path: Path, blocks, header: str, title: str, subject: str,
               keywords: str, min_pages: int, max_pages: int) -> None:
    pages, splits = layout(blocks)
    total = len(pages)
    if not (min_pages <= total <= max_pages):
        raise SystemExit(f"{path.name}: {total} pages, expected {min_pages}-{max_pages}")
    if splits < 1:
        raise SystemExit(f"{path.name}: no paragraph continues across a page break")

    doc = pymupdf.open()
    for n, ops in enumerate(pages, start=1):
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        # header
        tw = pymupdf.TextWriter(page.rect)
        tw.append((MARGIN_L, 46), header, font=FONT_REG, fontsize=9)
        tw.write_text(page, color=GREY)
        page.draw_line((MARGIN_L, 54), (PAGE_W - MARGIN_R, 54), color=GREY, width=0.5)
        # body: group consecutive ops by colour so content order == reading order
        group: list[tuple] = []
        for op in ops + [None]:
            if group and (op is None or op[5] != group[0][5]):
                tw = pymupdf.TextWriter(page.rect)
                for x, yb, text, font, size, _ in group:
                    tw.append((x, yb), text, font=font, fontsize=size)
                tw.write_text(page, color=group[0][5])
                group = []
            if op is not None:
                group.append(op)
        # footer
        page.draw_line((MARGIN_L, 744), (PAGE_W - MARGIN_R, 744), color=GREY, width=0.5)
        footer = f"Page {n} of {total}"
        fw = FONT_REG.text_length(footer, fontsize=9)
        tw = pymupdf.TextWriter(page.rect)
        tw.append(((PAGE_W - fw) / 2, 760), footer, font=FONT_REG, fontsize=9)
        tw.write_text(page, color=GREY)

    doc.subset_fonts()
    doc.set_metadata({
        "title": title,
        "author": COMPANY,
        "subject": subject,
        "keywords": keywords,
        "creator": GENERATOR,
        "producer": "PyMuPDF",
        "creationDate": PDF_DATE,
        "modDate": PDF_DATE,
    })
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    check_pdf(path, blocks, header, total)


def check_pdf(path: Path, blocks, header: str, total: int) -> None:
    """Every page has header + footer, and every block's text is extractable."""
    doc = pymupdf.open(path)
    assert doc.page_count == total
    body = []
    for n, page in enumerate(doc, start=1):
        lines = page.get_text().splitlines()
        assert header in lines, f"{path.name} p{n}: header missing"
        footer = f"Page {n} of {total}"
        assert footer in lines, f"{path.name} p{n}: footer missing"
        body.extend(l for l in lines if l not in (header, footer))
    text = norm_ws(" ".join(body))
    for kind, block in blocks:
        assert norm_ws(block) in text, f"{path.name}: text not extractable: {block[:60]!r}"
    doc.close()


# ---------------------------------------------------------------------------
# Security Overview (PDF)
# ---------------------------------------------------------------------------

SECURITY_OVERVIEW = [
    ("title", "Security Overview"),
    ("subtitle", "Lumen Ledger, Inc. \u2014 Invoicing and Accounts Payable Platform"),
    ("meta", "Version 5.0 \u00b7 Effective 1 April 2026 \u00b7 Owner: Chief Information Security Officer "
             "\u00b7 Classification: Confidential, shared with customers and prospects under NDA"),

    ("h1", "1. Introduction and Scope"),
    ("p", "Lumen Ledger, Inc. (\u201cLumen Ledger\u201d, \u201cwe\u201d) provides a cloud-based invoicing and "
          "accounts-payable platform that helps finance teams capture supplier invoices, route them through "
          "approval workflows, schedule vendor payments and reconcile the results with their general ledger. "
          "Our customers range from mid-sized companies to large enterprises, and the platform processes "
          "commercially sensitive information such as invoice documents, vendor master data, bank remittance "
          "details and the identities of the people who approve payments. Protecting that information is "
          "central to the service we sell, and this document describes the administrative, technical and "
          "physical controls that we use to do so."),
    ("p", "The Lumen Ledger platform is a multi-tenant software-as-a-service application hosted entirely on "
          "Amazon Web Services (AWS). Customers are provisioned in one of two production regions: us-east-1 "
          "(Northern Virginia, United States) for customers in North America and the rest of the world, and "
          "eu-west-1 (Ireland) for customers in the European Union and the European Economic Area. Encrypted "
          "backup copies are replicated to a recovery region in the same geography, us-west-2 (Oregon) for the "
          "United States and eu-central-1 (Frankfurt) for the European Union, as described in our Business "
          "Continuity Plan. Lumen Ledger does not host, store or process customer data in any other country or "
          "region; in particular, no customer data is stored in mainland China."),
    ("p", "This overview covers the production platform, the corporate systems used to build and operate it, "
          "and the people who have access to either. It is reviewed at least once a year by the Chief "
          "Information Security Officer (CISO) and whenever a material change is made to the platform. Our "
          "controls are examined every year by an independent auditor as part of a SOC 2 Type II engagement "
          "covering the Security, Availability and Confidentiality trust services criteria, and the most recent "
          "report is available to customers and prospects under a non-disclosure agreement."),

    ("h1", "2. Security Governance"),
    ("p", "The security programme is owned by the CISO, who reports directly to the Chief Executive Officer and "
          "presents a summary of risks, incidents and control performance to the executive team every quarter "
          "and to the Board of Directors twice a year. A dedicated security team covers security architecture, "
          "detection and response, and governance, risk and compliance, while our site reliability engineers "
          "share responsibility for the security of the infrastructure they operate."),
    ("p", "Our information security policies, including the acceptable use, access control, cryptography, "
          "vulnerability management, logging, secure development, vendor management and incident response "
          "policies, are approved by management, published on the internal wiki and reviewed at least annually. "
          "A formal risk assessment is performed every year and whenever a significant change is planned, and "
          "identified risks are tracked in a risk register with named owners and target dates. Vendors that "
          "process customer data are assessed before they are engaged and are reviewed again every year."),

    ("h1", "3. Access Control"),
    ("h2", "3.1 Workforce identity and single sign-on"),
    ("p", "All Lumen Ledger employees and contractors authenticate through a central identity provider, Okta, "
          "which is the single source of truth for workforce identities. Corporate applications, the AWS "
          "console and command-line access, source code repositories and internal administrative tools are "
          "integrated with Okta using SAML 2.0 or OpenID Connect single sign-on (SSO), so that a single "
          "deprovisioning action removes access everywhere. Local accounts are not permitted on systems that "
          "support SSO. The small number of break-glass accounts kept for emergencies are stored in a sealed "
          "vault, generate an alert whenever they are used, and are reviewed every quarter."),
    ("h2", "3.2 Multi-factor authentication"),
    ("p", "Multi-factor authentication (MFA) is enforced for all employees and contractors, without exception, "
          "for every application behind Okta. Approved factors are Okta Verify push notifications with number "
          "matching and FIDO2 hardware security keys; SMS and voice codes are not permitted. Access to "
          "production environments additionally requires a phishing-resistant FIDO2 security key, which is "
          "issued to each engineer during onboarding. MFA enforcement is configured centrally, so individual "
          "users cannot switch it off."),
    ("h2", "3.3 Role-based access control and least privilege"),
    ("p", "Access is granted through role-based access control (RBAC). Each role maps to a group in Okta and to "
          "a corresponding permission set in AWS IAM Identity Center and in our internal tools, and permissions "
          "are defined according to the principle of least privilege. Access requests are submitted through a "
          "ticketing workflow and must be approved by the requester\u2019s manager and by the owner of the "
          "system concerned. Nobody has standing access to production data stores: an engineer who needs to "
          "investigate a production issue requests just-in-time access, which must be approved by a second "
          "engineer, expires after at most four hours, and is recorded in full through AWS Systems Manager "
          "Session Manager."),
    ("p", "Within the application, customers control access for their own users through predefined roles "
          "(Administrator, Approver, AP Specialist and Viewer), which can be combined with approval limits and "
          "entity-level restrictions. On the Business and Enterprise plans, customer administrators can enable "
          "SAML 2.0 single sign-on with any standards-compliant identity provider; Enterprise customers can also "
          "provision users automatically through SCIM 2.0. Administrators can require all of their users to "
          "enrol in time-based one-time password (TOTP) MFA. Customer passwords, where used, must be at least "
          "twelve characters long and are stored only as salted Argon2id hashes."),
    ("h2", "3.4 Access reviews and the joiner-mover-leaver process"),
    ("p", "System owners review user access to production AWS accounts, databases, Okta administrative roles, "
          "source code repositories and other critical systems every quarter. Each quarterly access review "
          "confirms that every account belongs to a current worker whose role still requires the access; "
          "inappropriate access is removed within five business days, and the evidence is retained for audit. "
          "When a person changes role, access that is no longer needed is removed as part of the transfer. "
          "When a person leaves the company, their Okta account is deactivated and all access is removed within "
          "24 hours of termination, or immediately in the case of an involuntary departure."),

    ("h1", "4. Encryption"),
    ("h2", "4.1 Data at rest"),
    ("p", "All customer data is encrypted at rest using AES-256. Invoice documents and attachments are stored "
          "in Amazon S3 with server-side encryption using AWS Key Management Service (AWS KMS) keys; structured "
          "data is stored in Amazon RDS for PostgreSQL with storage encryption enabled; and Amazon EBS volumes, "
          "database snapshots and backups are encrypted in the same way. Encryption is enforced through "
          "infrastructure-as-code templates and by preventive guardrails in AWS Organizations, so an "
          "unencrypted storage resource cannot be created in a production account. Employee laptops use "
          "full-disk encryption, which is verified continuously by our device management platform."),
    ("h2", "4.2 Data in transit"),
    ("p", "All connections to the Lumen Ledger web application and API are encrypted using TLS 1.2 or higher, "
          "with TLS 1.3 preferred where the client supports it. TLS 1.0, TLS 1.1 and weak cipher suites are "
          "disabled on every external endpoint, and HTTP Strict Transport Security (HSTS) is enabled for our "
          "domains. Traffic between internal services, and between services and databases, is also encrypted "
          "with TLS. Outbound integrations with customers\u2019 ERP systems and banks use TLS 1.2 or higher and, "
          "where the partner supports it, mutual TLS or signed requests."),
    ("h2", "4.3 Key management"),
    ("p", "Encryption keys are created and stored in AWS KMS, whose hardware security modules are FIPS 140 "
          "validated, and key material never leaves KMS in plaintext. Separate keys are used for each "
          "environment and each data store, and permission to administer keys is restricted to a small group "
          "of security engineers who are separate from the services that use them. Automatic key rotation is "
          "enabled for all keys that protect customer data, so keys are rotated every year, and every use of a "
          "key is recorded in AWS CloudTrail. Application secrets such as database credentials and API tokens "
          "are held in AWS Secrets Manager and rotated automatically. Lumen Ledger manages all encryption keys "
          "on behalf of its customers: customer-supplied or customer-managed keys (BYOK) are not supported at "
          "this time."),

    ("h1", "5. Network Security"),
    ("p", "Each environment (production, staging and development) runs in separate AWS accounts and in its own "
          "Amazon Virtual Private Cloud (VPC), and there is no network connectivity between production and "
          "non-production environments. Within the production VPC, only the application load balancers are "
          "placed in public subnets. Application services run in private subnets, and databases and caches run "
          "in isolated subnets with no route to or from the internet. No production database has a public IP "
          "address."),
    ("p", "Traffic is controlled by security groups and network access control lists that follow a "
          "deny-by-default approach: each security group allows only the specific ports and source groups that "
          "a service needs, and changes are made exclusively through reviewed infrastructure-as-code. "
          "Internet-facing endpoints are protected by AWS WAF, a web application firewall configured with "
          "managed rule sets for common web attacks such as SQL injection and cross-site scripting, IP "
          "reputation lists, and rate-based rules that limit abusive traffic. AWS Shield Standard protects "
          "against common network-layer distributed denial-of-service (DDoS) attacks. Outbound traffic from "
          "private subnets leaves through NAT gateways and is restricted to approved destinations."),
    ("p", "There are no SSH bastion hosts and no inbound administrative ports open to the internet. "
          "Administrative access to instances and containers is brokered by AWS Systems Manager Session "
          "Manager, which requires SSO and MFA and records each session. VPC flow logs, WAF logs and load "
          "balancer access logs are enabled in every production account and forwarded to the central logging "
          "platform described in section 7."),

    ("h1", "6. Vulnerability Management"),
    ("p", "We look for vulnerabilities continuously and act on the results within defined time frames. "
          "Authenticated vulnerability scans of all production hosts, container images and cloud configurations "
          "run every week, and container images are also scanned at build time, before they can be deployed. "
          "Cloud security posture is monitored with AWS Security Hub and AWS Config rules aligned with industry "
          "benchmarks, and new findings automatically create tickets in the owning team\u2019s queue."),
    ("p", "An independent third-party security firm performs a penetration test of the Lumen Ledger "
          "application, API and AWS environment at least once a year and after major architectural changes. "
          "The testers receive authenticated access with each customer role, so that authorisation boundaries "
          "and tenant isolation are tested thoroughly. The most recent penetration test was completed in "
          "February 2026, and none of its critical or high-severity findings remain open. An executive summary "
          "of the report is available to customers under NDA."),
    ("p", "Vulnerabilities are prioritised using their CVSS score together with exploitability and exposure, "
          "and must be remediated within the following time frames: critical vulnerabilities within 7 days, "
          "high within 30 days, medium within 90 days, and low as part of normal maintenance. Critical "
          "vulnerabilities that are known to be exploited in the wild are mitigated as soon as possible, "
          "usually on the same day. Any exception to these time frames requires a documented risk acceptance "
          "approved by the CISO, with compensating controls and an expiry date. Security researchers can report "
          "suspected vulnerabilities to security@lumenledger.example under our responsible disclosure policy; "
          "we do not currently run a paid public bug bounty programme."),

    ("h1", "7. Logging and Monitoring"),
    ("p", "Security-relevant events are logged across every layer of the platform. Sources include AWS "
          "CloudTrail in every account and region, VPC flow logs, AWS WAF and load balancer logs, Amazon "
          "GuardDuty findings, database audit logs, operating system and container logs, Okta system logs, and "
          "the application\u2019s own audit trail, which records sign-ins, permission changes, invoice approvals, "
          "payment file generation and changes to vendor bank details."),
    ("p", "All logs are forwarded to a centralised logging platform in a dedicated log-archive AWS account that "
          "production engineers cannot modify. Logs are stored in Amazon S3 with Object Lock enabled, so they "
          "cannot be altered or deleted before they expire, and they are retained for one year (365 days), "
          "during which they remain searchable for investigations. Clocks on all systems are synchronised with "
          "the Amazon Time Sync Service so that events can be correlated reliably across sources."),
    ("p", "Detection rules and anomaly alerts, for example for disabled CloudTrail logging, use of a root "
          "account, unusual data access, impossible-travel sign-ins or unexpected changes to vendor bank "
          "details, are routed to an on-call rotation. Our security and site reliability engineers provide 24x7 "
          "on-call coverage every day of the year, and alerts for potentially critical events must be "
          "acknowledged within 15 minutes. Customer administrators can review their own organisation\u2019s "
          "audit log in the application, export it, or stream it to their own security tools through the API; "
          "this customer-facing audit log is also retained for one year."),

    ("h1", "8. Secure Software Development"),
    ("p", "Lumen Ledger follows a secure software development lifecycle (SDLC) that builds security into each "
          "stage, from design to deployment. Significant features go through a threat-modelling review with the "
          "security team before implementation, and every engineer completes secure coding training based on "
          "the OWASP Top 10 when they join and once a year thereafter."),
    ("p", "All source code, including infrastructure-as-code, is stored in version control with branch "
          "protection enabled on the main branch. Every change requires code review and approval by at least "
          "one engineer other than the author before it can be merged, and changes to authentication, "
          "authorisation, cryptography or payment logic also require review by a member of the security team. "
          "The continuous integration pipeline runs unit and integration tests, static application security "
          "testing (SAST), dependency scanning and software composition analysis (SCA) to detect vulnerable "
          "open-source libraries, secrets scanning and container image scanning. Builds with critical findings "
          "are blocked automatically."),
    ("p", "Deployments to production are performed only by the automated pipeline; engineers cannot push code "
          "to production by hand. Each release is traceable to the reviewed changes that it contains and can be "
          "rolled back quickly. Development and test environments use synthetic data only, and production "
          "customer data is never copied into non-production environments."),

    ("h1", "9. Personnel Security"),
    ("p", "Before they start work, all employees, and all contractors with access to company systems, undergo "
          "background checks performed by a specialised screening provider to the extent permitted by local "
          "law. Depending on the country, the checks cover identity and right to work, employment history, "
          "education and criminal records. Every worker signs a confidentiality agreement and acknowledges the "
          "acceptable use and information security policies before receiving access."),
    ("p", "All employees complete security awareness training during onboarding and annual security training "
          "thereafter; completion is tracked, and access is suspended for anyone who is more than 30 days "
          "overdue. The training covers phishing, social engineering, the secure handling of customer data, "
          "incident reporting and privacy obligations under the GDPR. We also run phishing simulation campaigns "
          "every quarter and provide targeted follow-up training where needed, and engineers receive additional "
          "role-specific training on secure development and cloud security."),
    ("p", "Company laptops are centrally managed, with full-disk encryption, automatic screen lock, operating "
          "system updates and endpoint detection and response (EDR) software enforced through device "
          "management. Only managed devices that pass these posture checks can reach production administrative "
          "tools. Departing workers return their equipment, which is securely wiped before it is reused."),

    ("h1", "10. Physical Security"),
    ("p", "Lumen Ledger does not own or operate any data centres. The production platform runs entirely in AWS "
          "data centres, which AWS protects with controls such as perimeter fencing, security staff, video "
          "surveillance, multi-factor electronic access control, environmental safeguards and redundant power. "
          "Under the AWS shared responsibility model, AWS is responsible for the physical security of these "
          "facilities, and its controls are independently audited; we review the AWS SOC 2 report every year as "
          "part of our vendor management process."),
    ("p", "Our offices in Boston and Dublin contain no servers and no customer data. Office access is "
          "controlled with badges, visitors must sign in and be escorted, and a clear desk policy applies. "
          "Because staff work remotely much of the time, the confidentiality of customer data relies on the "
          "identity and device controls described above rather than on office perimeters."),

    ("h1", "11. Business Continuity and Incident Response"),
    ("p", "The platform runs across three Availability Zones in each production region, so the loss of a single "
          "data centre does not interrupt the service. For larger disasters, the Business Continuity Plan "
          "defines a recovery point objective (RPO) of 1 hour and a recovery time objective (RTO) of 4 hours. "
          "Daily encrypted backups are retained for 35 days and replicated to the recovery region in the same "
          "geography, and the disaster recovery plan is tested every year; the most recent test was completed "
          "in March 2026."),
    ("p", "Security incidents are handled under our incident response plan, which defines four severity levels "
          "(SEV-1 to SEV-4), roles, escalation paths and communication duties. If we confirm a security breach "
          "affecting customer data, we notify the affected customers without undue delay and in any event "
          "within 72 hours, and we keep them informed as the investigation progresses. Every SEV-1 and SEV-2 "
          "incident is followed by a blameless post-mortem."),

    ("h1", "12. Contact"),
    ("p", "Questions about this document or about Lumen Ledger\u2019s security programme can be sent to "
          "security@lumenledger.example. Privacy and data protection questions should be addressed to our Data "
          "Protection Officer, Anja Keller, at privacy@lumenledger.example. Customers with an active contract "
          "can request our SOC 2 Type II report, the penetration test summary and completed standard "
          "questionnaires through their account manager."),
]


# ---------------------------------------------------------------------------
# Business Continuity Plan (PDF)
# ---------------------------------------------------------------------------

BCP = [
    ("title", "Business Continuity Plan"),
    ("subtitle", "Lumen Ledger, Inc. \u2014 Business Continuity and Disaster Recovery"),
    ("meta", "Version 4.1 \u00b7 Approved 1 April 2026 \u00b7 Owner: Head of Site Reliability Engineering "
             "\u00b7 Classification: Confidential"),

    ("h1", "1. Purpose and Scope"),
    ("p", "This Business Continuity Plan (BCP) describes how Lumen Ledger, Inc. keeps its invoicing and "
          "accounts-payable platform available to customers, and how it recovers the platform and its data if "
          "a serious disruption occurs. It covers the production environments in AWS us-east-1 (Northern "
          "Virginia) and eu-west-1 (Ireland), the corporate systems needed to operate them, and the people and "
          "suppliers on which recovery depends. The plan is approved by the Chief Executive Officer and the "
          "Chief Information Security Officer (CISO), is reviewed at least annually and after every activation "
          "or test, and is summarised for customers in the Lumen Ledger Security Overview."),
    ("p", "The plan addresses the loss of an AWS Availability Zone, the loss of an entire AWS region, data "
          "corruption or accidental deletion, ransomware or another destructive security incident, the "
          "unavailability of a critical supplier, and the loss of key personnel or office facilities."),

    ("h1", "2. Roles and Responsibilities"),
    ("p", "The Head of Site Reliability Engineering (SRE) owns this plan and keeps the recovery procedures, "
          "runbooks and contact lists current. The following roles are assigned whenever the plan may need to "
          "be invoked:"),
    ("bullet", "Incident Commander: appointed from the 24x7 on-call rotation, coordinates the response and "
               "can declare a disaster after consulting the CISO or the VP of Engineering."),
    ("bullet", "Recovery Lead: a senior SRE who executes the technical recovery runbooks and reports progress "
               "to the Incident Commander."),
    ("bullet", "Customer Communications Lead: a member of the Customer Success team who owns status page "
               "updates and direct customer notifications."),
    ("bullet", "CISO and Data Protection Officer: decide on contractual and regulatory notifications whenever "
               "personal data may be affected."),
    ("p", "Each role has a named primary and at least one trained deputy. Contact details for all roles are "
          "kept in the on-call scheduling tool and in an offline copy of this plan, so that the people needed "
          "for recovery can be reached even if corporate systems are unavailable."),

    ("h1", "3. Recovery Objectives"),
    ("p", "Lumen Ledger commits to the following recovery objectives for Tier 1 services (the web application, "
          "the public API, invoice capture and approval workflows, and payment scheduling) in the event of a "
          "disaster that affects an entire production region:"),
    ("bullet", "Recovery point objective (RPO): 1 hour. No more than one hour of committed data may be lost."),
    ("bullet", "Recovery time objective (RTO): 4 hours. Tier 1 services are restored within four hours of a "
               "disaster being declared."),
    ("p", "Tier 2 services, such as reporting, analytics exports and scheduled ERP synchronisation, are "
          "restored within 24 hours, once Tier 1 services are running. The failure of a single Availability "
          "Zone is handled automatically by the multi-AZ architecture described below and typically causes no "
          "more than a few minutes of disruption. These objectives are reflected in customer contracts and are "
          "validated during the annual disaster recovery test."),

    ("h1", "4. Resilience Architecture"),
    ("p", "Each production region runs across three Availability Zones. Application services run in "
          "containers behind load balancers, spread across all three zones, with automatic scaling and health "
          "checks that replace failed tasks. The Amazon RDS for PostgreSQL databases use Multi-AZ deployments "
          "with synchronous standby replicas and automatic failover, and invoice documents are stored in "
          "Amazon S3, which stores objects redundantly across multiple Availability Zones. The entire "
          "infrastructure is defined as code, so an equivalent environment can be rebuilt in a recovery region "
          "from the same reviewed templates. DNS is served by Amazon Route 53 with health checks, so customer "
          "traffic can be redirected to a recovery region within minutes once that region is ready."),
    ("p", "Each production region has a designated recovery region within the same geography: us-west-2 "
          "(Oregon) for us-east-1, and eu-central-1 (Frankfurt) for eu-west-1. The production data of customers "
          "in the European Union stays in eu-west-1, and their encrypted backups are replicated only to "
          "eu-central-1, so EU customer data is never stored outside the European Union, in line with the data "
          "residency commitments in our Privacy and Data Handling Statement."),

    ("h1", "5. Backup and Replication"),
    ("p", "Backups are the foundation of our ability to recover from data loss, corruption or a destructive "
          "attack. Automated backups of every production database are taken daily, encrypted with AES-256 keys "
          "held in AWS KMS, and retained for 35 days. In addition, continuous database transaction logs allow "
          "point-in-time recovery to any moment within the retention period. Backups are copied to a separate, "
          "dedicated backup account protected by AWS Backup Vault Lock, so that they cannot be deleted or "
          "modified before the end of the retention period, even by an administrator."),
    ("p", "For cross-region protection, encrypted database backups and transaction logs are replicated to the "
          "recovery region. Transaction logs are shipped at least every 15 minutes, which allows us to meet the "
          "one-hour RPO with a comfortable margin. Invoice documents and attachments in Amazon S3 are replicated "
          "continuously to the recovery region using S3 Cross-Region Replication, with the same encryption. "
          "Backup jobs and replication lag are monitored, and any failure alerts the on-call engineer. When the "
          "35-day retention period ends, backups expire and are deleted automatically."),
    ("p", "Restores are tested every month: an automated job restores a recent production backup into an "
          "isolated account, runs integrity checks and records the time taken, after which the restored copy is "
          "destroyed. The SRE team reviews the results, and a failed restore test is handled as a SEV-3 "
          "incident."),

    ("h1", "6. Disaster Recovery Procedure"),
    ("p", "If a production region becomes unavailable, or data cannot be recovered in place, the Incident "
          "Commander follows the disaster recovery runbook, which has the following phases:"),
    ("bullet", "Assess: confirm the scope of the outage using AWS Health and internal monitoring, and estimate "
               "the time needed to recover in place."),
    ("bullet", "Declare: if recovery in place is not expected within two hours, declare a disaster and open a "
               "SEV-1 incident."),
    ("bullet", "Recover: provision the environment in the recovery region from infrastructure-as-code, restore "
               "the databases from the latest replicated backups and transaction logs, and confirm that "
               "document replication is complete."),
    ("bullet", "Validate: run automated smoke tests and reconciliation checks on invoice and payment data before "
               "any customer traffic is switched."),
    ("bullet", "Resume: redirect DNS to the recovery region, confirm normal operation and inform customers "
               "through the status page."),
    ("bullet", "Return: once the primary region is healthy again, plan a controlled failback during a "
               "maintenance window."),

    ("h1", "7. Disaster Recovery Testing"),
    ("p", "The disaster recovery plan is tested at least once a year with a full regional failover exercise, "
          "and tabletop exercises covering other scenarios, such as ransomware and supplier failure, are held "
          "at least twice a year. The most recent disaster recovery test took place in March 2026 and simulated "
          "the complete loss of us-east-1. Tier 1 services were restored in us-west-2 in 2 hours and 48 "
          "minutes, and the restored data was 11 minutes behind the point of failure, so both the 4-hour RTO and "
          "the 1-hour RPO were met. Two improvement actions were identified, automating a manual DNS "
          "verification step and correcting an outdated contact list, and both were completed in April 2026. "
          "The next full test is scheduled for March 2027."),

    ("h1", "8. Incident Response"),
    ("p", "Security and availability incidents are managed under the Lumen Ledger Incident Response Plan, which "
          "is maintained by the security team and summarised here. Incidents may be detected by automated "
          "monitoring, or reported by employees, customers, security researchers or suppliers. They are "
          "triaged by the on-call engineer, who acknowledges critical alerts within 15 minutes and assigns one "
          "of four severity levels:"),
    ("bullet", "SEV-1 (Critical): a confirmed breach of customer data, or a complete outage of Tier 1 services "
               "in a region. An Incident Commander is engaged within 15 minutes and work continues around the "
               "clock until the incident is resolved."),
    ("bullet", "SEV-2 (High): a suspected compromise of a production system, or severe degradation of Tier 1 "
               "services for many customers. Response begins within 30 minutes, 24x7."),
    ("bullet", "SEV-3 (Medium): limited impact on a single feature or a small number of customers, or a policy "
               "violation with no evidence of data exposure. Response begins within 4 hours."),
    ("bullet", "SEV-4 (Low): minimal or no customer impact. Handled by the next business day."),
    ("p", "When a security breach affecting customer data is confirmed, Lumen Ledger notifies the affected "
          "customers without undue delay and in any event within 72 hours of confirmation. The notification "
          "describes the nature of the breach, the categories of data involved, the likely consequences and the "
          "measures taken or proposed, and it is followed by regular updates until the incident is closed. "
          "Because customers are the data controllers for the personal data in their accounts, this timeline "
          "is designed to let them meet their own obligations under the GDPR. Every SEV-1 and SEV-2 incident is "
          "closed with a blameless post-mortem within five business days, and customers affected by a SEV-1 "
          "incident receive a written root-cause summary on request."),

    ("h1", "9. Communication"),
    ("p", "During a disruption, customers are kept informed through the public status page at "
          "status.lumenledger.example, which is hosted independently of the production platform. For SEV-1 and "
          "SEV-2 incidents, status updates are published at least every hour until service is restored. "
          "Internally, incident communication takes place in a dedicated chat channel and video bridge, with an "
          "offline phone tree as a fallback if corporate tools are unavailable."),

    ("h1", "10. People, Facilities and Suppliers"),
    ("p", "Lumen Ledger operates as a remote-first company, so the loss of the Boston or Dublin office does not "
          "affect our ability to operate the platform. On-call duties are shared by engineers in the United "
          "States and in Europe, and every critical runbook has at least two trained owners. Critical "
          "suppliers, led by AWS, are assessed for resilience before they are engaged and reviewed every year. "
          "If our workforce identity provider is unavailable, break-glass credentials kept in a sealed vault "
          "provide emergency access to AWS."),

    ("h1", "11. Plan Maintenance"),
    ("p", "This plan is reviewed at least annually, after each disaster recovery test, and after any significant "
          "change to the architecture or the organisation. Its change history is kept in the document "
          "management system, and each new version is communicated to all staff with continuity "
          "responsibilities."),
]


# ---------------------------------------------------------------------------
# Privacy and Data Handling (DOCX)
# ---------------------------------------------------------------------------

PRIVACY_BLOCKS = [  # the statement's body, in order: ("h1"|"h2"|"p", text) or ("table", header row, rows)
    ("h1", "1. Overview"),
    ("p", "This statement explains how Lumen Ledger, Inc. (\u201cLumen Ledger\u201d) collects, uses, stores, "
      "shares and deletes data when it provides its invoicing and accounts-payable platform to business "
      "customers. It supplements the Data Processing Addendum (DPA) that forms part of every customer "
      "agreement, and the Lumen Ledger Security Overview, which describes the technical and organisational "
      "measures that protect customer data."),
    ("p", "Lumen Ledger hosts its platform on Amazon Web Services (AWS) in two production regions, us-east-1 "
      "(Northern Virginia) and eu-west-1 (Ireland). Our approach to privacy is simple: we process customer "
      "data only to provide the service our customers have asked for, we keep it only as long as we need "
      "it, and we never sell it."),

    ("h1", "2. Roles under the GDPR"),
    ("p", "For personal data contained in the platform, such as the names and business email addresses of "
      "customer users and the contact details of suppliers that appear on invoices, the customer is the "
      "data controller and Lumen Ledger acts as a data processor. We process that personal data only on "
      "the customer\u2019s documented instructions. For the limited data we use to run our own business, "
      "such as billing contacts and visitors to our website, Lumen Ledger is the controller."),
    ("h2", "2.1 Data Processing Addendum"),
    ("p", "Our DPA implements the requirements of Article 28 of the General Data Protection Regulation (GDPR) "
      "and the UK GDPR. It covers confidentiality obligations for personnel, the security measures we "
      "maintain, the use of subprocessors, assistance with data subject requests and data protection "
      "impact assessments, notification of personal data breaches within 72 hours of confirmation, audit "
      "rights, and the deletion of data at the end of the contract. Where personal data of EU customers is "
      "accessed remotely from outside the European Economic Area, for example by on-call engineers in the "
      "United States during incident response, the transfer is covered by the European Commission\u2019s "
      "Standard Contractual Clauses, which are incorporated into the DPA. A signed copy of the DPA can be "
      "requested from privacy@lumenledger.example."),
    ("h2", "2.2 Subprocessors"),
    ("p", "Lumen Ledger uses a small number of subprocessors to deliver the service. Each subprocessor is "
      "assessed for security and privacy before it is engaged, is bound by a written agreement with data "
      "protection terms at least as protective as our DPA, and is reviewed every year. We give customers "
      "30 days\u2019 notice before adding or replacing a subprocessor, and customers may object to the "
      "change on reasonable data protection grounds."),
    ("table",
        ["Subprocessor", "Purpose", "Data processed", "Location"],
        [
            ["Amazon Web Services, Inc.", "Cloud hosting, storage and backups",
             "All customer data (encrypted at rest)",
             "us-east-1 and us-west-2 for US customers; eu-west-1 and eu-central-1 for EU customers"],
            ["Twilio Inc. (SendGrid)", "Delivery of transactional email such as approval requests",
             "Recipient names and email addresses, notification text",
             "United States for US customers; European Union for EU customers"],
            ["Zendesk, Inc.", "Customer support ticketing",
             "Contact details and content of support requests",
             "United States for US customers; European Union for EU customers"],
        ],
    ),
    ("p", "Okta is used as the identity provider for Lumen Ledger personnel only; it does not receive "
      "customer content and is therefore not listed as a subprocessor."),

    ("h1", "3. Data We Process and How Long We Keep It"),
    ("p", "The table below summarises the main categories of data in the platform, why we process them and "
      "how long they are retained."),
    ("table",
        ["Data category", "Examples", "Purpose", "Retention"],
        [
            ["Account and user data", "Names, business email addresses, roles, SSO identifiers",
             "Providing and securing access to the service",
             "Duration of the contract; deleted within 30 days of contract end"],
            ["Invoice and payment data",
             "Invoice documents, line items, vendor master data, remittance and bank account details",
             "Invoice capture, approval workflows, payment scheduling",
             "Duration of the contract; deleted within 30 days of contract end"],
            ["Audit and security logs", "Sign-ins, approvals, permission changes, IP addresses",
             "Security monitoring and the customer audit trail", "1 year (365 days)"],
            ["Backups", "Encrypted copies of production databases and documents",
             "Disaster recovery", "35 days, then deleted automatically"],
            ["Support tickets", "Ticket text and attachments provided by customer users",
             "Customer support", "Duration of the contract; deleted within 30 days of contract end"],
        ],
    ),

    ("h1", "4. Data Residency"),
    ("p", "Customers choose their hosting region when their account is created. Customers in the European "
      "Union and the European Economic Area are hosted in AWS eu-west-1 (Ireland): their production data "
      "stays in eu-west-1, and the encrypted backup copies used for disaster recovery are replicated only "
      "to eu-central-1 (Frankfurt), so EU customer data is never stored outside the European Union. "
      "Customers elsewhere are hosted in us-east-1 (Northern Virginia), with backups replicated to "
      "us-west-2 (Oregon)."),
    ("p", "Lumen Ledger does not store or process customer data in any other country, including China, and "
      "does not move a customer\u2019s data to a different region without the customer\u2019s written "
      "instruction."),

    ("h1", "5. Use of Customer Data"),
    ("h2", "5.1 No selling of data"),
    ("p", "Lumen Ledger does not sell, rent or trade customer data, and does not share it with third parties "
      "for advertising or marketing purposes. Customer data is used only to provide, secure and support the "
      "service under the customer agreement. We may use aggregated, de-identified usage statistics, such as "
      "how often a feature is used, to improve the product; these statistics cannot identify a customer or "
      "an individual."),
    ("h2", "5.2 Access by Lumen Ledger personnel"),
    ("p", "Access to customer data is limited to personnel who need it to operate or support the service, is "
      "granted through role-based access control with multi-factor authentication, and is logged. Support "
      "staff can view a customer\u2019s account only after a customer administrator grants time-limited "
      "support access in the application. Production data is never copied into development or test "
      "environments."),

    ("h1", "6. Data Subject Requests"),
    ("p", "Because our customers are the controllers of the personal data in their accounts, data subjects "
      "should contact the relevant customer directly. If Lumen Ledger receives a request that relates to a "
      "customer\u2019s data, we forward it to that customer without undue delay and help the customer to "
      "respond, for example by locating, exporting, correcting or deleting the data concerned."),

    ("h1", "7. Data Retention and Deletion"),
    ("p", "During the subscription, customers can delete individual records and export their data at any time "
      "through the application or the API. When the contract ends, Lumen Ledger deletes all customer data "
      "from production systems within 30 days of contract end and confirms the deletion in writing on "
      "request. Residual copies in encrypted backups are deleted automatically when those backups expire at "
      "the end of the 35-day backup retention period. Audit logs are kept for one year for security "
      "purposes and then deleted."),

    ("h1", "8. Personal Data Breaches"),
    ("p", "If Lumen Ledger confirms a security breach affecting customer data, we notify the affected customers "
      "without undue delay and in any event within 72 hours of confirmation, so that they can meet their own "
      "notification obligations. The process is described in our Incident Response runbook and Business "
      "Continuity Plan."),

    ("h1", "9. Privacy Contact"),
    ("p", "Lumen Ledger has appointed a Data Protection Officer (DPO), Anja Keller, who is based in our Dublin "
      "office. Privacy questions, requests for the DPA or the current subprocessor list, and any concerns "
      "about how we handle data can be sent to privacy@lumenledger.example. Security questions can be sent "
      "to security@lumenledger.example."),
]


def privacy_document():
    """A new document with the statement's fixed metadata, font, page header and title."""
    doc = Document()
    cp = doc.core_properties
    cp.title = "Privacy and Data Handling Statement"
    cp.subject = "Lumen Ledger privacy, GDPR and data handling"
    cp.author = COMPANY
    cp.last_modified_by = COMPANY
    cp.keywords = "privacy; GDPR; DPA; subprocessors; data residency; retention"
    cp.comments = "Fictional sample document generated by assets/make_sample.py"
    cp.category = "Knowledge base"
    cp.created = FIXED_DT
    cp.modified = FIXED_DT
    cp.last_printed = FIXED_DT
    cp.revision = 3

    normal = doc.styles["Normal"]
    normal.font.name = "Calibri"
    normal.font.size = Pt(11)

    header = doc.sections[0].header.paragraphs[0]
    header.text = "Lumen Ledger \u2014 Privacy and Data Handling \u2014 Confidential"
    header.alignment = WD_ALIGN_PARAGRAPH.RIGHT

    doc.add_heading("Privacy and Data Handling Statement", level=0)
    p = doc.add_paragraph("Lumen Ledger, Inc. \u00b7 Version 3.0 \u00b7 Last updated 1 April 2026")
    p.runs[0].italic = True
    return doc


def add_table(doc, header_row: list[str], rows: list[list[str]]) -> None:
    """A "Table Grid" table with a bold header row, followed by an empty paragraph."""
    tbl = doc.add_table(rows=1, cols=len(header_row))
    tbl.style = "Table Grid"
    for cell, text in zip(tbl.rows[0].cells, header_row):
        cell.text = ""
        run = cell.paragraphs[0].add_run(text)
        run.bold = True
    for row in rows:
        cells = tbl.add_row().cells
        for cell, text in zip(cells, row):
            cell.text = text
    doc.add_paragraph()


def add_block(doc, block: tuple) -> None:
    """One entry of ``PRIVACY_BLOCKS`` appended to ``doc``."""
    kind, *args = block
    if kind == "h1":
        doc.add_heading(args[0], level=1)
    elif kind == "h2":
        doc.add_heading(args[0], level=2)
    elif kind == "p":
        doc.add_paragraph(args[0])
    elif kind == "table":
        add_table(doc, *args)
    else:
        raise ValueError(f"assets/make_sample.py: unknown block kind {kind!r} in PRIVACY_BLOCKS; "
                         "use h1, h2, p or table")


def make_privacy_docx(path: Path) -> None:
    doc = privacy_document()
    for block in PRIVACY_BLOCKS:
        add_block(doc, block)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(path))
    normalize_zip(path)


# ---------------------------------------------------------------------------
# Past answers (XLSX)
# ---------------------------------------------------------------------------

PAST_ANSWERS = [
    ("Access Control", "Is multi-factor authentication required for all employee access to corporate and production systems?", "Yes",
     "MFA is enforced through Okta for all employees and contractors, without exception. SMS is not an allowed factor; FIDO2 security keys are required for production access."),
    ("Access Control", "Do you support SAML 2.0 single sign-on for customer users?", "Yes",
     "Available on the Business and Enterprise plans with any SAML 2.0 identity provider. SCIM 2.0 provisioning is available on the Enterprise plan."),
    ("Access Control", "Are user access reviews performed at least quarterly?", "Yes",
     "System owners review access to production AWS accounts, databases, Okta admin roles and repositories every quarter."),
    ("Access Control", "Is access revoked within 24 hours of an employee's termination?", "Yes",
     "The Okta account is deactivated and all access removed within 24 hours; immediately for involuntary departures."),
    ("Encryption", "Is customer data encrypted at rest?", "Yes",
     "AES-256 via AWS KMS for Amazon RDS, Amazon S3, EBS volumes and backups."),
    ("Encryption", "Are TLS 1.0 and TLS 1.1 disabled on all external endpoints?", "Yes",
     "TLS 1.2 is the minimum; TLS 1.3 is preferred. HSTS is enabled."),
    ("Encryption", "Do you support customer-managed encryption keys (BYOK)?", "No",
     "All keys are managed by Lumen Ledger in AWS KMS and rotated automatically every year. BYOK is not offered at this time."),
    ("Vulnerability Management", "Is a third-party penetration test performed at least annually?", "Yes",
     "Most recent test completed February 2026; no critical or high findings open. Executive summary available under NDA."),
    ("Vulnerability Management", "Do you run a paid public bug bounty programme?", "No",
     "We run a responsible disclosure programme (security@lumenledger.example) but no paid public bug bounty."),
    ("Business Continuity", "Do you have a documented RPO and RTO?", "Yes",
     "RPO 1 hour, RTO 4 hours for Tier 1 services. See the Business Continuity Plan v4.1."),
    ("Business Continuity", "Are backups retained for at least 30 days?", "Yes",
     "Daily encrypted backups are retained for 35 days and replicated to a recovery region in the same geography."),
    ("Privacy", "Do you sell or rent customer data to third parties?", "No",
     "Customer data is never sold, rented or shared for advertising or marketing."),
    ("Privacy", "Is EU customer data ever stored outside the European Union?", "No",
     "EU customers are hosted in eu-west-1 (Ireland); encrypted backups replicate only to eu-central-1 (Frankfurt)."),
    ("Privacy", "Is production customer data used in development or test environments?", "No",
     "Non-production environments use synthetic data only."),
    ("Personnel Security", "Do all employees complete security awareness training annually?", "Yes",
     "Training at onboarding and annually thereafter; completion tracked, access suspended when 30 days overdue. Quarterly phishing simulations."),
    ("Physical Security", "Do you operate your own data centres?", "No",
     "The platform runs entirely in AWS data centres; AWS SOC 2 report reviewed annually."),
]


def save_workbook(wb: Workbook, path: Path, title: str) -> None:
    props = wb.properties
    props.creator = COMPANY
    props.lastModifiedBy = COMPANY
    props.title = title
    props.created = FIXED_DT
    props.modified = FIXED_DT
    path.parent.mkdir(parents=True, exist_ok=True)
    # ExcelWriter directly: openpyxl.save_workbook would stamp modified=now()
    archive = ZipFile(path, "w", ZIP_DEFLATED, allowZip64=True)
    ExcelWriter(wb, archive).save()
    normalize_zip(path)


THIN = Side(style="thin", color="B0B0B0")
BORDER = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
HEADER_FILL = PatternFill("solid", fgColor="1F3864")
SECTION_FILL = PatternFill("solid", fgColor="D9E1F2")
WRAP_TOP = Alignment(wrap_text=True, vertical="top")


def make_past_answers(path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Answers"
    ws["A1"] = "Lumen Ledger \u2014 Approved Security Questionnaire Answers (answer library, last reviewed 1 April 2026)"
    ws["A1"].font = Font(bold=True, size=13)
    ws.merge_cells("A1:E1")
    # row 2 intentionally blank
    headers = ["ID", "Category", "Question", "Answer", "Notes"]
    for col, h in enumerate(headers, start=1):
        c = ws.cell(row=3, column=col, value=h)
        c.font = Font(bold=True, color="FFFFFF")
        c.fill = HEADER_FILL
        c.border = BORDER
    first = 4
    for i, (cat, q, a, note) in enumerate(PAST_ANSWERS):
        r = first + i
        values = [f"PA-{i + 1:03d}", cat, q, a, note]
        for col, v in enumerate(values, start=1):
            c = ws.cell(row=r, column=col, value=v)
            c.alignment = WRAP_TOP
            c.border = BORDER
    # merge the Category cell over each run of consecutive rows
    r = first
    last = first + len(PAST_ANSWERS) - 1
    while r <= last:
        cat = PAST_ANSWERS[r - first][0]
        end = r
        while end + 1 <= last and PAST_ANSWERS[end + 1 - first][0] == cat:
            end += 1
        if end > r:
            ws.merge_cells(start_row=r, start_column=2, end_row=end, end_column=2)
        ws.cell(row=r, column=2).alignment = Alignment(vertical="center", wrap_text=True)
        ws.cell(row=r, column=2).font = Font(bold=True)
        r = end + 1
    for col, width in zip("ABCDE", (9, 22, 60, 9, 70)):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "A4"

    lists = wb.create_sheet("Lists")
    lists["A1"] = "Yes"
    lists["A2"] = "No"
    lists.sheet_state = "hidden"

    dv = DataValidation(type="list", formula1="=Lists!$A$1:$A$2", allow_blank=True)
    dv.add(f"D{first}:D{last}")
    ws.add_data_validation(dv)
    save_workbook(wb, path, "Past Answers")


# ---------------------------------------------------------------------------
# Sample questionnaire (XLSX + CSV + questions.txt)
# ---------------------------------------------------------------------------

# (section, id, question, expected answer)  -- expected answers are NOT written
QUESTIONNAIRE = [
    ("Access Control", [
        ("AC-01", "Do you support single sign-on (SSO) for customer users via SAML 2.0?", "Yes"),
        ("AC-02", "Is multi-factor authentication enforced for all employees who access corporate or production systems?", "Yes"),
        ("AC-03", "Is access to systems granted on a least-privilege, role-based basis?", "Yes"),
        ("AC-04", "Are user access rights reviewed at least quarterly?", "Yes"),
    ]),
    ("Encryption", [
        ("EN-01", "Is customer data encrypted at rest using AES-256 or an equivalent algorithm?", "Yes"),
        ("EN-02", "Is all data in transit over public networks encrypted using TLS 1.2 or higher?", "Yes"),
        ("EN-03", "Are encryption keys rotated at least annually?", "Yes"),
        ("EN-04", "Can customers supply and manage their own encryption keys (BYOK)?", "No"),
        ("EN-05", "Have you deployed quantum-safe (post-quantum) cryptographic algorithms to protect data in transit?", "not covered"),
    ]),
    ("Network Security", [
        ("NS-01", "Is a web application firewall (WAF) deployed in front of all internet-facing applications?", "Yes"),
        ("NS-02", "Are production databases isolated in private network segments with no direct internet access?", "Yes"),
    ]),
    ("Vulnerability Management", [
        ("VM-01", "Do you perform vulnerability scans of your production environment at least monthly?", "Yes"),
        ("VM-02", "Is an independent third-party penetration test performed at least once a year?", "Yes"),
        ("VM-03", "Are critical vulnerabilities remediated within 7 days of discovery?", "Yes"),
    ]),
    ("Logging and Monitoring", [
        ("LM-01", "Are security logs retained for at least 12 months?", "Yes"),
        ("LM-02", "Do you provide 24x7 monitoring and on-call response for security alerts?", "Yes"),
    ]),
    ("Business Continuity", [
        ("BC-01", "Is your recovery time objective (RTO) for the service 8 hours or less?", "Yes"),
        ("BC-02", "Is your disaster recovery plan tested at least annually?", "Yes"),
    ]),
    ("Incident Response", [
        ("IR-01", "Will you notify us within 72 hours of confirming a security breach that affects our data?", "Yes"),
    ]),
    ("Privacy and Data Handling", [
        ("PR-01", "Is customer data deleted within 30 days of contract termination?", "Yes"),
        ("PR-02", "Is EU customer data stored exclusively in data centres located in the European Union?", "Yes"),
        ("PR-03", "Do you store or process customer data in China?", "No"),
        ("PR-04", "Is customer data sold to third parties?", "No"),
    ]),
    ("Personnel Security", [
        ("HR-01", "Do all employees undergo background checks before they are hired?", "Yes"),
    ]),
    ("Compliance", [
        ("CO-01", "Is your organisation certified under the CSA STAR Level 2 programme?", "not covered"),
    ]),
]

UNCOVERED_TERMS = ["quantum", "CSA", "STAR"]
NOT_COVERED = "not covered"  # the knowledge base says nothing about it: the only right draft is none


def write_expected(path: Path) -> None:
    """The answer key of the sample questionnaire, one JSON line per question, in the truth-file
    form of `eval questionnaire` ({id, question, answer, comment}): the expected Yes/No, or
    "not covered" for the deliberately uncovered questions (the knowledge base never mentions
    them: a draft must come out no_context or low confidence)."""
    lines = [json.dumps({"id": qid, "question": question, "answer": expected, "comment": ""}, ensure_ascii=False)
             for qid, question, expected in questionnaire_rows()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")


def questionnaire_rows():
    for _section, items in QUESTIONNAIRE:
        for qid, question, expected in items:
            yield qid, question, expected


def make_questionnaire(xlsx: Path, csv_path: Path, questions_txt: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Questionnaire"
    ws["A1"] = "Harborpoint Freight Group \u2014 Third-Party Vendor Security Assessment (v2.3)"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = ("Instructions: answer every question by selecting Yes, No or N/A in the Answer column and add "
                "supporting detail in the Comments column. See the Instructions sheet for details.")
    ws["A3"] = "Vendor: ____________________    Completed by: ____________________    Date: ____________"
    for r in (1, 2, 3):
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=4)
        ws.cell(row=r, column=1).alignment = Alignment(wrap_text=True, vertical="top")
    ws.row_dimensions[2].height = 30

    header_row = 4
    for col, h in enumerate(["ID", "Question", "Answer", "Comments"], start=1):
        c = ws.cell(row=header_row, column=col, value=h)
        c.font = Font(bold=True, color="FFFFFF")
        c.fill = HEADER_FILL
        c.border = BORDER
    ws.freeze_panes = f"A{header_row + 1}"

    r = header_row + 1
    for section, items in QUESTIONNAIRE:
        c = ws.cell(row=r, column=1, value=section)
        c.font = Font(bold=True)
        for col in range(1, 5):
            ws.cell(row=r, column=col).fill = SECTION_FILL
        r += 1
        for qid, question, _expected in items:
            ws.cell(row=r, column=1, value=qid)
            ws.cell(row=r, column=2, value=question)
            for col in range(1, 5):
                cell = ws.cell(row=r, column=col)
                cell.alignment = WRAP_TOP
                cell.border = BORDER
            r += 1
    last = r - 1

    dv = DataValidation(type="list", formula1='"Yes,No,N/A"', allow_blank=True,
                        showErrorMessage=True, errorTitle="Invalid answer",
                        error="Please select Yes, No or N/A.",
                        promptTitle="Answer", prompt="Select Yes, No or N/A")
    dv.add(f"C{header_row + 1}:C{last}")
    ws.add_data_validation(dv)
    for col, width in zip("ABCD", (16, 80, 10, 50)):
        ws.column_dimensions[col].width = width

    ins = wb.create_sheet("Instructions")
    ins["A1"] = "Instructions for completing this assessment"
    ins["A1"].font = Font(bold=True, size=13)
    ins["A3"] = (
        "Harborpoint Freight Group requires every supplier that stores or processes our data to complete this "
        "security assessment before a contract is signed and once a year thereafter. Please answer each "
        "question on the Questionnaire sheet by choosing Yes, No or N/A from the drop-down list in the Answer "
        "column, and use the Comments column to explain your answer, reference supporting documents, or "
        "describe compensating controls. Answer on behalf of the service that will be provided to Harborpoint, "
        "not your organisation in general. Where a question does not apply, select N/A and explain why. "
        "Return the completed workbook to vendor-risk@harborpoint.example within 15 business days. We may "
        "ask for evidence such as audit reports, penetration test summaries or policies to support your "
        "answers."
    )
    ins["A3"].alignment = Alignment(wrap_text=True, vertical="top")
    ins.column_dimensions["A"].width = 110
    ins.row_dimensions[3].height = 120

    save_workbook(wb, xlsx, "Vendor Security Assessment")

    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["ID", "Question", "Answer", "Comments"])
        for qid, question, _ in questionnaire_rows():
            w.writerow([qid, question, "", ""])

    with open(questions_txt, "w", newline="", encoding="utf-8") as fh:
        for _, question, _ in questionnaire_rows():
            fh.write(question + "\n")


# ---------------------------------------------------------------------------
# Incident response runbook (Markdown)
# ---------------------------------------------------------------------------

INCIDENT_RESPONSE_MD = """\
# Lumen Ledger Incident Response Runbook

*Lumen Ledger, Inc. \u00b7 Version 2.4 \u00b7 Last reviewed 1 April 2026 \u00b7 Owner: Security team \u00b7 Confidential*

This runbook tells the on-call engineer what to do from the moment a potential security or availability
incident is detected until the post-mortem is published. It implements the incident response section of the
Business Continuity Plan (v4.1) and applies to both production regions (AWS us-east-1 and eu-west-1).

## Roles

- **On-call engineer**: first responder. Security and site reliability engineers share a 24x7 on-call
  rotation, every day of the year.
- **Incident Commander (IC)**: owns the incident once it is SEV-1 or SEV-2, coordinates responders and makes
  decisions. The IC can declare a disaster after consulting the CISO or the VP of Engineering.
- **Communications Lead**: a member of the Customer Success team who owns status page updates and customer
  notifications.
- **CISO and Data Protection Officer**: decide on customer, contractual and regulatory notifications whenever
  personal data may be affected.

## Detection

Incidents reach us through several channels:

1. Automated alerts from the central logging platform, Amazon GuardDuty, AWS Security Hub, WAF rules and
   service health checks. Logs from all sources are centralised in the log-archive account and retained for
   one year (365 days), so investigations can look back twelve months.
2. Reports from employees (the `#security-report` channel or security@lumenledger.example).
3. Reports from customers through support, or from security researchers under the responsible disclosure
   policy.
4. Notifications from suppliers such as AWS.

Alerts for potentially critical events must be **acknowledged within 15 minutes**. If the primary on-call
engineer does not acknowledge, the page escalates automatically to the secondary and then to the
engineering manager on call.

## Triage

On acknowledging an alert or report, the on-call engineer:

1. Opens an incident ticket and a dedicated incident channel, and starts a timeline.
2. Confirms whether the event is real (true positive) and what is affected: which region, which customers,
   which data.
3. Assigns a severity level using the table below. When in doubt, choose the higher severity; it can be
   lowered later.
4. For SEV-1 and SEV-2, pages an Incident Commander and the Communications Lead.
5. Preserves evidence before making changes: snapshots of affected volumes, copies of relevant logs, and
   notes of any commands run.

## Severity Levels

| Severity | Definition | Response |
|----------|------------|----------|
| SEV-1 (Critical) | Confirmed breach of customer data, or complete outage of Tier 1 services in a region | Incident Commander engaged within 15 minutes; work continues around the clock |
| SEV-2 (High) | Suspected compromise of a production system, or severe degradation of Tier 1 services for many customers | Response within 30 minutes, 24x7 |
| SEV-3 (Medium) | Limited impact on one feature or a few customers, or a policy violation with no evidence of data exposure | Response within 4 hours |
| SEV-4 (Low) | Minimal or no customer impact | Handled by the next business day |

Tier 1 services are the web application, the public API, invoice capture and approval workflows, and payment
scheduling.

## Containment, Eradication and Recovery

- Contain first: revoke or rotate exposed credentials, isolate affected instances or containers with
  restrictive security groups, and block malicious sources in AWS WAF.
- Use just-in-time production access through AWS Systems Manager Session Manager; every session is recorded.
- Eradicate the root cause (patch, redeploy from a clean, reviewed build, remove persistence).
- If data must be restored or a region is lost, follow the disaster recovery runbook in the Business
  Continuity Plan: RPO 1 hour, RTO 4 hours, restoring from daily encrypted backups (kept 35 days) and
  replicated transaction logs in the recovery region.

## Communication

- **Status page**: for SEV-1 and SEV-2 incidents that affect availability, the Communications Lead posts to
  status.lumenledger.example and publishes updates **at least every hour** until service is restored.
- **Breach notification**: when a security breach affecting customer data is confirmed, the affected
  customers are notified **without undue delay and in any event within 72 hours of confirmation**. The
  notice covers the nature of the breach, the categories of data involved, likely consequences and the
  measures taken, and is followed by regular updates until closure.
- **Internal**: all coordination happens in the incident channel and video bridge; if corporate tools are
  down, use the offline phone tree.
- Never speculate about causes in customer-facing messages; only share confirmed facts approved by the IC.

## Post-mortem

- Every SEV-1 and SEV-2 incident gets a **blameless post-mortem within five business days** of resolution.
- The post-mortem records the timeline, impact, root cause, what went well, what went badly, and action
  items with owners and due dates. Action items are tracked to completion in the engineering backlog.
- Customers affected by a SEV-1 incident receive a written root-cause summary on request.
- Lessons learned feed into this runbook, detection rules and the annual disaster recovery test.

## Contacts

- Security team: security@lumenledger.example
- Data Protection Officer (Anja Keller): privacy@lumenledger.example
- Status page: status.lumenledger.example
"""


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def check_uncovered(kb_texts: list[str]) -> None:
    """The 'not covered' questionnaire items must really be absent from the KB."""
    blob = "\n".join(kb_texts)
    for term in UNCOVERED_TERMS:
        pattern = rf"\b{re.escape(term)}\b"
        flags = re.IGNORECASE if term.islower() else 0
        if re.search(pattern, blob, flags):
            raise SystemExit(f"KB unexpectedly mentions {term!r}")


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent / "sample"
    kb = out / "kb"
    qdir = out / "questionnaire"
    kb.mkdir(parents=True, exist_ok=True)
    qdir.mkdir(parents=True, exist_ok=True)

    render_pdf(kb / "Security_Overview.pdf", SECURITY_OVERVIEW,
               header="Lumen Ledger \u2014 Security Overview \u2014 Confidential",
               title="Lumen Ledger Security Overview",
               subject="Security whitepaper for the Lumen Ledger invoicing and accounts payable platform",
               keywords="security, access control, encryption, AWS, SOC 2",
               min_pages=6, max_pages=8)
    render_pdf(kb / "Business_Continuity_Plan.pdf", BCP,
               header="Lumen Ledger \u2014 Business Continuity Plan \u2014 Confidential",
               title="Lumen Ledger Business Continuity Plan",
               subject="Business continuity, disaster recovery and incident response",
               keywords="business continuity, disaster recovery, RPO, RTO, backups, incident response",
               min_pages=4, max_pages=5)
    make_privacy_docx(kb / "Privacy_and_Data_Handling.docx")
    make_past_answers(kb / "Past_Answers.xlsx")
    (kb / "Incident_Response.md").write_text(INCIDENT_RESPONSE_MD, encoding="utf-8", newline="\n")
    make_questionnaire(qdir / "Sample_Security_Questionnaire.xlsx",
                       qdir / "Sample_Security_Questionnaire.csv",
                       out / "questions.txt")
    write_expected(qdir / "expected.jsonl")

    kb_texts = [t for _, t in SECURITY_OVERVIEW] + [t for _, t in BCP] + [INCIDENT_RESPONSE_MD]
    kb_texts += [" ".join(row[1:]) for row in PAST_ANSWERS]
    docx_doc = Document(str(kb / "Privacy_and_Data_Handling.docx"))
    kb_texts += [p.text for p in docx_doc.paragraphs]
    kb_texts += [c.text for t in docx_doc.tables for row in t.rows for c in row.cells]
    check_uncovered(kb_texts)

    total = 0
    for p in sorted(out.rglob("*")):
        if p.is_file():
            total += p.stat().st_size
            print(f"{p.stat().st_size:>8}  {p.relative_to(out)}")
    print(f"{total:>8}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
