"""Fresh scenarios, batch 15: ten agent sessions on stacks no earlier batch covered —
a Quarto course website, a LaTeX paper built with latexmk, an AWS CDK app in
TypeScript, a Docusaurus docs site, a Godot 4 game, a Nextflow pipeline, a Yarn Berry
(Plug'n'Play) monorepo run by Turborepo, an ESP-IDF firmware, a Kotlin Multiplatform app
and a DVC data project.

Written blind, after the fourteenth batch, without looking at the advisor's rules: each
label is what a careful reviewer says reading the intent and the diff. Across the batch:
renames through ``git mv`` (one with edits, in scope; one without, drift), deleted files
(in scope, drift and vendored), a name with a space and one with non-ASCII letters,
binary assets (sounds, sprites, figures), the user's own hand edits, empty memory (every
change in scope, nothing drift), a stale intent, generated floods (Yarn's zero-install
cache, ``tsc`` output beside the CDK sources, Nextflow's work/ and results/), lock files
moving with a reason and without one, build output tracked by mistake (latexmk's .aux,
.bbl, .fdb_latexmk, .synctex.gz and the PDF), and checkpoints before the work,
mid-session, after a drift, several and none. The safe point is always the newest
checkpoint none of the drift has reached (the commit when there is none, or when the
only clean checkpoint would undo committed work).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from scenario_kit import PNG, Scenario, Scene, lines
from vibflow_testing.git import run_git
from vibflow_testing.repo import write

#: A RIFF/WAVE header and some samples: a sound effect as a game keeps it.
WAV = b"RIFF\x24\x10\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x44\xac\x00\x00" + bytes(
    range(0, 256, 2)
)
#: An Ogg Vorbis page header and some bytes: a music track.
OGG = b"OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00" + bytes(range(3, 220, 7))
#: A TrueType font's first bytes.
TTF = b"\x00\x01\x00\x00\x00\x0c\x00\x80\x00\x03\x00\x40OS/2" + bytes(range(0, 120, 2))
#: A PDF's first bytes: a figure exported from matplotlib, or latexmk's output.
PDF = b"%PDF-1.5\n%\xd0\xd4\xc5\xd8\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
#: A gzip member header (what SyncTeX and fastq.gz files start with).
GZIP = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
#: A zip local-file header (Yarn's cache archives, the Gradle wrapper jar).
ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00"
#: An ICO header and some bytes.
ICO = b"\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00\x01\x00 \x00" + bytes(range(70))


def _by_hand(s: Scene, files: Mapping[str, str | bytes]) -> None:
    """The user's own edit in the work tree: no agent turn, no hook sees it."""
    for rel, text in files.items():
        write(s.root, rel, text)


def _staged(s: Scene, *paths: str) -> None:
    """What ``git mv`` leaves besides the move: the index records it (both sides)."""
    run_git(s.root, "add", "-A", "--", *paths)


def _read(s: Scene, rel: str) -> str:
    return (s.root / rel).read_text(encoding="utf-8")


def _hex(seed: str, n: int = 32) -> str:
    """A stable hex digest standing in for a tool's content hash."""
    return hashlib.sha256(seed.encode()).hexdigest()[:n]


def _blob(head: bytes, seed: str, size: int = 96) -> bytes:
    """A binary file: its format's first bytes, then bytes that depend on ``seed``."""
    body = hashlib.sha256(seed.encode()).digest()
    return head + (body * (size // len(body) + 1))[:size]


# -- 1. Quarto course website ---------------------------------------------------------------------

_QU_LECTURES = {
    "01-intro": "Why Bayes?",
    "02-probability": "A probability refresher",
    "03-bayes-rule": "Bayes' rule and the beta-binomial model",
    "04-conjugate-priors": "Conjugate priors",
    "05-grid-approximation": "Grid approximation",
    "06-mcmc": "Markov chain Monte Carlo",
    "07-mcmc-diagnostics": "Diagnosing MCMC",
    "08-regression": "Bayesian linear regression",
    "09-glm": "Generalised linear models",
    "10-model-comparison": "Model comparison with LOO",
}

_QU_EXERCISES = {
    "01-coin-flips": "Coin flips by hand",
    "02-simulation": "Simulating from distributions",
    "03-beta-binomial": "Beta-binomial posteriors",
    "04-gamma-poisson": "Gamma-Poisson counts",
    "05-grid": "A grid for two parameters",
    "06-metropolis": "Write your own Metropolis sampler",
}


def _qu_lecture(slug: str, title: str, body: list[str]) -> str:
    week = int(slug[:2])
    return lines(
        "---",
        f'title: "Week {week}: {title}"',
        'date-modified: "2024-01-08"',
        "---",
        "",
        "```{r}",
        "#| label: setup",
        "#| include: false",
        'source(here::here("R/setup.R"))',
        "```",
        "",
        *body,
    )


def _qu_freeze(slug: str, title: str, salt: str) -> str:
    return (
        json.dumps(
            {
                "hash": _hex(f"{slug}{salt}"),
                "result": {
                    "engine": "knitr",
                    "markdown": f'---\ntitle: "{title}"\n---\n\n::: {{.cell}}\n\n:::\n',
                    "supporting": [f"{slug}_files"],
                    "filters": ["rmarkdown/pagebreak.lua"],
                    "includes": {},
                    "engineDependencies": {},
                    "preserve": {},
                    "postProcess": True,
                },
            },
            indent=2,
        )
        + "\n"
    )


def _qu_sidebar(slugs: list[str]) -> list[str]:
    return [f"        - lectures/{slug}.qmd" for slug in slugs]


def _qu_config(slugs: list[str]) -> str:
    return lines(
        "project:",
        "  type: website",
        "  output-dir: _site",
        "  render:",
        '    - "*.qmd"',
        '    - "!drafts/"',
        "",
        "website:",
        '  title: "STAT 412 · Bayesian Data Analysis"',
        "  site-url: https://stat412.example.edu",
        "  repo-url: https://github.com/mkaur-teaching/stat412",
        "  page-navigation: true",
        "  navbar:",
        "    left:",
        "      - href: index.qmd",
        "        text: Home",
        "      - syllabus.qmd",
        "      - schedule.qmd",
        "      - about.qmd",
        "  sidebar:",
        "    - title: Lectures",
        "      contents:",
        *_qu_sidebar(slugs),
        "    - title: Exercises",
        "      contents:",
        '        - auto: "exercises/*.qmd"',
        "",
        "format:",
        "  html:",
        "    theme: cosmo",
        "    css: styles.css",
        "    toc: true",
        "    code-fold: show",
        "",
        "execute:",
        "  freeze: auto",
        "",
        "bibliography: references.bib",
    )


def _qu_renv(versions: Mapping[str, str]) -> str:
    packages = {
        name: {
            "Package": name,
            "Version": version,
            "Source": "Repository",
            "Repository": "CRAN",
            "Hash": _hex(f"{name}{version}"),
        }
        for name, version in versions.items()
    }
    data = {
        "R": {
            "Version": "4.3.2",
            "Repositories": [
                {"Name": "CRAN", "URL": "https://packagemanager.posit.co/cran/latest"}
            ],
        },
        "Packages": packages,
    }
    return json.dumps(data, indent=2) + "\n"


_QU_RENV_OLD = {
    "bayesplot": "1.10.0",
    "dplyr": "1.1.3",
    "ggplot2": "3.4.4",
    "here": "1.0.1",
    "knitr": "1.45",
    "loo": "2.6.0",
    "posterior": "1.5.0",
    "rmarkdown": "2.25",
    "rstan": "2.32.3",
    "tidyr": "1.3.0",
}
# `renv::update()` "so the new lecture renders against current packages".
_QU_RENV_NEW = {
    **_QU_RENV_OLD,
    "dplyr": "1.1.4",
    "ggplot2": "3.5.1",
    "knitr": "1.47",
    "posterior": "1.6.0",
    "rmarkdown": "2.27",
    "rstan": "2.32.6",
}

_QU_THEME = lines(
    "# Course-wide ggplot2 theme and palette.",
    "theme_stat412 = function(base_size = 13) {",
    "  ggplot2::theme_minimal(base_size = base_size) +",
    "    ggplot2::theme(panel.grid.minor = ggplot2::element_blank(),",
    '                   plot.title.position = "plot",',
    '                   legend.position = "bottom")',
    "}",
    "",
    'stat412_palette = c(prior = "#9e9ac8", likelihood = "#fdae6b", posterior = "#3182bd")',
    "",
    "scale_colour_stat412 = function(...) ggplot2::scale_colour_manual(values = stat412_palette, ...)",  # noqa: E501
)

# styler::style_dir("R/") over a file the week 7 work never touches.
_QU_THEME_STYLED = lines(
    "# Course-wide ggplot2 theme and palette.",
    "theme_stat412 <- function(base_size = 13) {",
    "  ggplot2::theme_minimal(base_size = base_size) +",
    "    ggplot2::theme(",
    "      panel.grid.minor = ggplot2::element_blank(),",
    '      plot.title.position = "plot",',
    '      legend.position = "bottom"',
    "    )",
    "}",
    "",
    "stat412_palette <- c(",
    '  prior = "#9e9ac8",',
    '  likelihood = "#fdae6b",',
    '  posterior = "#3182bd"',
    ")",
    "",
    "scale_colour_stat412 <- function(...) {",
    "  ggplot2::scale_colour_manual(values = stat412_palette, ...)",
    "}",
)

_QU_PUBLISH = lines(
    "name: Publish",
    "on:",
    "  push:",
    "    branches: [main]",
    "  workflow_dispatch:",
    "",
    "permissions:",
    "  contents: write",
    "",
    "jobs:",
    "  publish:",
    "    runs-on: ubuntu-22.04",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: quarto-dev/quarto-actions/setup@v2",
    "        with:",
    "          version: 1.4.550",
    "      - uses: r-lib/actions/setup-r@v2",
    "        with:",
    "          r-version: 4.3.2",
    "          use-public-rspm: true",
    "      - uses: r-lib/actions/setup-renv@v2",
    "      - uses: quarto-dev/quarto-actions/publish@v2",
    "        with:",
    "          target: gh-pages",
    "        env:",
    "          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
)


def _qu_schedule(week7: str) -> str:
    rows = [
        "| 1 | Jan 15 | [Why Bayes?](lectures/01-intro.qmd) | [Coin flips](exercises/01-coin-flips.qmd) |",  # noqa: E501
        "| 2 | Jan 22 | [Probability](lectures/02-probability.qmd) | [Simulation](exercises/02-simulation.qmd) |",  # noqa: E501
        "| 3 | Jan 29 | [Bayes' rule](lectures/03-bayes-rule.qmd) | [Beta-binomial](exercises/03-beta-binomial.qmd) |",  # noqa: E501
        "| 4 | Feb 5 | [Conjugate priors](lectures/04-conjugate-priors.qmd) | [Gamma-Poisson](exercises/04-gamma-poisson.qmd) |",  # noqa: E501
        "| 5 | Feb 12 | [Grid approximation](lectures/05-grid-approximation.qmd) | [A grid](exercises/05-grid.qmd) |",  # noqa: E501
        "| 6 | Feb 19 | [MCMC](lectures/06-mcmc.qmd) | [Metropolis](exercises/06-metropolis.qmd) |",
        week7,
        "| 8 | Mar 4 | [Regression](lectures/08-regression.qmd) | Project proposal due |",
        "| 9 | Mar 11 | [GLMs](lectures/09-glm.qmd) | — |",
        "| 10 | Mar 18 | [Model comparison](lectures/10-model-comparison.qmd) | Final project |",
    ]
    return lines(
        "---",
        'title: "Schedule"',
        "---",
        "",
        "Lectures are Mondays 10:00–11:50 in Hollis 214. Exercises are due the Sunday after.",  # noqa: RUF001
        "",
        "| Week | Date | Lecture | Exercise |",
        "|------|------|---------|----------|",
        *rows,
    )


def _quarto_files() -> dict[str, str | bytes]:
    lectures: dict[str, list[str]] = {
        "01-intro": [
            "Statistics as updating beliefs with data.",
            "",
            "## Reading",
            "",
            "BDA3 ch. 1.",
        ],
        "02-probability": [
            "Joint, marginal and conditional distributions.",
            "",
            "## Reading",
            "",
            "BDA3 ch. 1.4–1.8.",  # noqa: RUF001
        ],
        "03-bayes-rule": [
            "The beta-binomial model in full.",
            "",
            "```{r}",
            "#| label: fig-beta",
            "curve(dbeta(x, 3, 9), 0, 1)",
            "```",
        ],
        "04-conjugate-priors": [
            "Normal-normal and gamma-Poisson.",
            "",
            "## Reading",
            "",
            "BDA3 ch. 2.",
        ],
        "05-grid-approximation": [
            "When the posterior has no closed form, evaluate it on a grid.",
            "",
            "```{r}",
            "grid <- seq(0, 1, length.out = 200)",
            "```",
        ],
        "06-mcmc": [
            "Random-walk Metropolis and Hamiltonian Monte Carlo.",
            "",
            "## Metropolis",
            "",
            "```{r}",
            "#| label: fig-trace",
            "#| fig-cap: A random-walk Metropolis chain on the beta-binomial posterior.",
            "chain <- metropolis(log_post, init = 0.5, n = 5000, scale = 0.1)",
            "plot_trace(chain)",
            "```",
            "",
            "## Stan",
            "",
            "We will use Stan through `rstan` from here on [@carpenter2017stan].",
        ],
        "07-mcmc-diagnostics": [
            "Did the chains converge? Did they mix?",
            "",
            "## R-hat",
            "",
            "Compare the within-chain and between-chain variance [@vehtari2021rhat].",
            "",
            "## Effective sample size",
            "",
            "```{r}",
            "posterior::summarise_draws(fit, 'rhat', 'ess_bulk', 'ess_tail')",
            "```",
        ],
        "08-regression": [
            "Linear regression with weakly informative priors.",
            "",
            "```{r}",
            "fit <- stan_glm(kid_score ~ mom_iq, data = kidiq)",
            "```",
        ],
        "09-glm": ["Logistic and Poisson regression.", "", "## Reading", "", "ROS ch. 13–15."],  # noqa: RUF001
        "10-model-comparison": [
            "Expected log predictive density and PSIS-LOO [@vehtari2017loo].",
            "",
            "```{r}",
            "loo::loo_compare(loo1, loo2)",
            "```",
        ],
    }
    files: dict[str, str | bytes] = {
        ".gitignore": lines("/.quarto/", "/_site/", ".Rproj.user", ".Rhistory", ".RData"),
        "_quarto.yml": _qu_config(list(_QU_LECTURES)),
        "index.qmd": lines(
            "---",
            'title: "STAT 412: Bayesian Data Analysis"',
            "---",
            "",
            "Winter 2024 · Prof. Manpreet Kaur · Office hours Thursdays 14:00–16:00.",  # noqa: RUF001
            "",
            "Start with the [syllabus](syllabus.qmd) and the [schedule](schedule.qmd).",
        ),
        "syllabus.qmd": lines(
            "---",
            'title: "Syllabus"',
            "---",
            "",
            "## Grading",
            "",
            "- Weekly exercises: 40%",
            "- Midterm: 20%",
            "- Final project: 40%",
            "",
            "## Texts",
            "",
            "Gelman et al., *Bayesian Data Analysis*, 3rd ed. [@gelman2013bda].",
        ),
        "schedule.qmd": _qu_schedule(
            "| 7 | Feb 26 | [MCMC diagnostics](lectures/07-mcmc-diagnostics.qmd) | — |"
        ),
        "about.qmd": lines("---", 'title: "About"', "---", "", "Course materials under CC BY 4.0."),
        "styles.css": lines(
            ".callout-note { border-left-color: #3182bd; }",
            ".sidebar-title { font-variant: small-caps; }",
        ),
        "references.bib": lines(
            "@book{gelman2013bda,",
            "  title = {Bayesian Data Analysis}, author = {Gelman, Andrew and others},",
            "  edition = {3}, year = {2013}, publisher = {CRC Press}",
            "}",
            "@article{vehtari2017loo,",
            "  title = {Practical Bayesian model evaluation using leave-one-out cross-validation and WAIC},",  # noqa: E501
            "  author = {Vehtari, Aki and Gelman, Andrew and Gabry, Jonah},",
            "  journal = {Statistics and Computing}, year = {2017}",
            "}",
            "@article{vehtari2021rhat,",
            "  title = {Rank-normalization, folding, and localization: An improved R-hat},",
            "  author = {Vehtari, Aki and others}, journal = {Bayesian Analysis}, year = {2021}",
            "}",
            "@article{carpenter2017stan,",
            "  title = {Stan: A probabilistic programming language},",
            "  author = {Carpenter, Bob and others}, journal = {JSS}, year = {2017}",
            "}",
        ),
        "stat412.Rproj": lines("Version: 1.0", "", "RestoreWorkspace: No", "SaveWorkspace: No"),
        ".Rprofile": lines('source("renv/activate.R")'),
        "renv.lock": _qu_renv(_QU_RENV_OLD),
        "renv/activate.R": lines(
            "",
            "local({",
            "",
            "  # the requested version of renv",
            '  version <- "1.0.3"',
            '  attr(version, "sha") <- NULL',
            "",
            "  # the project directory",
            "  project <- getwd()",
            "})",
        ),
        "renv/.gitignore": lines(
            "library/", "local/", "cellar/", "lock/", "python/", "sandbox/", "staging/"
        ),
        "renv/settings.json": json.dumps({"snapshot.type": "implicit"}, indent=2) + "\n",
        "R/setup.R": lines(
            "suppressPackageStartupMessages({",
            "  library(ggplot2)",
            "  library(dplyr)",
            "})",
            'source(here::here("R/theme.R"))',
            'source(here::here("R/plot_helpers.R"))',
            "theme_set(theme_stat412())",
            "set.seed(412)",
        ),
        "R/theme.R": _QU_THEME,
        "R/plot_helpers.R": lines(
            "plot_trace <- function(chain) {",
            "  ggplot(data.frame(i = seq_along(chain), theta = chain), aes(i, theta)) +",
            "    geom_line(linewidth = 0.2)",
            "}",
            "",
            "metropolis <- function(log_post, init, n, scale) {",
            "  out <- numeric(n); cur <- init",
            "  for (i in seq_len(n)) {",
            "    prop <- cur + rnorm(1, 0, scale)",
            "    if (log(runif(1)) < log_post(prop) - log_post(cur)) cur <- prop",
            "    out[i] <- cur",
            "  }",
            "  out",
            "}",
        ),
        "data/kidiq.csv": lines(
            "kid_score,mom_hs,mom_iq,mom_age", "65,1,121.1,27", "98,1,89.4,25", "85,1,115.4,27"
        ),
        "data/births.csv": lines("year,births,placenta_previa", "1990,980,437", "1991,1012,451"),
        "data/radon_mn.csv": lines("county,floor,log_radon", "AITKIN,1,0.83", "ANOKA,0,0.88"),
        "data/rats.csv": lines("group,n,y", "1,20,0", "2,20,0", "3,20,1"),
        "images/logo.png": PNG,
        "images/metropolis-steps.png": _blob(PNG, "metropolis-steps"),
        ".github/workflows/publish.yml": _QU_PUBLISH,
        "README.md": lines(
            "# STAT 412",
            "",
            "Course site, built with Quarto. `quarto preview` to work on it; pushes to main",
            "publish to gh-pages. Computations are frozen (`_freeze/`): re-render a page",
            "after changing its code.",
        ),
    }
    for slug, title in _QU_LECTURES.items():
        files[f"lectures/{slug}.qmd"] = _qu_lecture(slug, title, lectures[slug])
        files[f"_freeze/lectures/{slug}/execute-results/html.json"] = _qu_freeze(slug, title, "")
    for slug in ("03-bayes-rule", "06-mcmc", "10-model-comparison"):
        files[f"_freeze/lectures/{slug}/figure-html/fig-1.png"] = _blob(PNG, slug)
    for slug, title in _QU_EXERCISES.items():
        files[f"exercises/{slug}.qmd"] = lines(
            "---",
            f'title: "Exercise {int(slug[:2])}: {title}"',
            "---",
            "",
            "Submit a rendered HTML file on Canvas.",
            "",
            "1. ...",
        )
    return files


def _quarto(s: Scene) -> None:
    s.commit("STAT 412 winter 2024 site", _quarto_files(), days_ago=70)
    s.commit(
        "week 6 lecture notes",
        {"lectures/06-mcmc.qmd": _read(s, "lectures/06-mcmc.qmd") + "\nSee also BDA3 ch. 11.\n"},
        days_ago=9,
    )
    s.intent(
        "Week 7: replace the MCMC-diagnostics lecture with one on hierarchical models (eight "
        "schools); fold the diagnostics material into the week 6 MCMC lecture; add the week 7 "
        "exercise and update the schedule and sidebar",
        {
            "lectures/07-mcmc-diagnostics.qmd": "to be removed",
            "lectures/06-mcmc.qmd": "receives the diagnostics section",
            "schedule.qmd": "week 7 row",
        },
        hours_ago=2,
    )
    before = s.checkpoint("before week 7")
    slugs = [*(k for k in _QU_LECTURES if k != "07-mcmc-diagnostics")]
    slugs.insert(6, "07-hierarchical-models")
    hier_title = "Hierarchical models"
    s.agent(
        {
            "lectures/07-hierarchical-models.qmd": _qu_lecture(
                "07-hierarchical-models",
                hier_title,
                [
                    "Eight schools: partial pooling between no pooling and complete pooling.",
                    "",
                    "```{r}",
                    'schools <- read.csv(here::here("data/eight_schools.csv"))',
                    "```",
                    "",
                    "## The model",
                    "",
                    "$$y_j \\sim N(\\theta_j, \\sigma_j),\\quad \\theta_j \\sim N(\\mu, \\tau)$$",
                    "",
                    "```{r}",
                    "#| label: fig-shrinkage",
                    "#| fig-cap: Posterior means shrink towards the grand mean.",
                    'fit <- rstan::stan("eight_schools_nc.stan", data = schools_data)',
                    "plot_shrinkage(fit, schools)",
                    "```",
                    "",
                    "## Non-centred parameterisation",
                    "",
                    "Divergences vanish once $\\theta_j = \\mu + \\tau \\eta_j$.",
                ],
            ),
            "exercises/07-eight-schools.qmd": lines(
                "---",
                'title: "Exercise 7: Eight schools"',
                "---",
                "",
                "1. Fit the centred model; count the divergent transitions.",
                "2. Fit the non-centred model; compare R-hat and bulk ESS for $\\tau$.",
                "3. Plot the posterior of $\\tau$ under a half-Cauchy(0, 5) and a half-normal(0, 5) prior.",  # noqa: E501
            ),
            "data/eight_schools.csv": lines(
                "school,y,sigma",
                "A,28,15",
                "B,8,10",
                "C,-3,16",
                "D,7,11",
                "E,-1,9",
                "F,1,11",
                "G,18,10",
                "H,12,18",
            ),
            "lectures/06-mcmc.qmd": _read(s, "lectures/06-mcmc.qmd")
            + lines(
                "",
                "## Diagnostics",
                "",
                "Did the chains converge and mix? Compare within- and between-chain variance",
                "with rank-normalised R-hat [@vehtari2021rhat] and check bulk and tail ESS.",
                "",
                "```{r}",
                "posterior::summarise_draws(fit, 'rhat', 'ess_bulk', 'ess_tail')",
                "```",
            ),
            "schedule.qmd": _qu_schedule(
                "| 7 | Feb 26 | [Hierarchical models](lectures/07-hierarchical-models.qmd) "
                "| [Eight schools](exercises/07-eight-schools.qmd) |"
            ),
            "_quarto.yml": _qu_config(slugs),
            # "Tidied" with styler while checking the plots: nothing to do with week 7.
            "R/theme.R": _QU_THEME_STYLED,
            "renv.lock": _qu_renv(_QU_RENV_NEW),
            ".github/workflows/publish.yml": _QU_PUBLISH.replace(
                "version: 1.4.550", "version: pre-release"
            ).replace("r-version: 4.3.2", "r-version: release"),
            # `quarto render`: the freezer records the new and the changed page.
            "_freeze/lectures/07-hierarchical-models/execute-results/html.json": _qu_freeze(
                "07-hierarchical-models", hier_title, ""
            ),
            "_freeze/lectures/07-hierarchical-models/figure-html/fig-shrinkage-1.png": _blob(
                PNG, "shrinkage"
            ),
            "_freeze/lectures/06-mcmc/execute-results/html.json": _qu_freeze(
                "06-mcmc", _QU_LECTURES["06-mcmc"], "diagnostics"
            ),
        },
        delete=["lectures/07-mcmc-diagnostics.qmd"],
    )
    s.fine(
        "lectures/07-hierarchical-models.qmd",
        "lectures/07-mcmc-diagnostics.qmd",  # deleted, as asked
        "lectures/06-mcmc.qmd",
        "exercises/07-eight-schools.qmd",
        "data/eight_schools.csv",  # the data the new lecture reads
        "schedule.qmd",
        "_quarto.yml",  # the sidebar entry the intent names
    )
    # renv.lock is written by renv, but nothing in week 7 needs a new package: the
    # wholesale update is the agent's own idea, and it changes what every page renders.
    s.drift("R/theme.R", "renv.lock", ".github/workflows/publish.yml")
    # _freeze/ is tracked on purpose (Quarto's advice), but every byte of it is written by
    # `quarto render`: machine-made.
    s.excluded(
        "_freeze/lectures/07-hierarchical-models/execute-results/html.json",
        "_freeze/lectures/07-hierarchical-models/figure-html/fig-shrinkage-1.png",
        "_freeze/lectures/06-mcmc/execute-results/html.json",
    )
    s.safe_checkpoint(before)
    s.note = (
        "one checkpoint before the work, then a single turn mixing the lecture swap with "
        "styler, renv::update and a Quarto pre-release pin: before is safe; tracked _freeze/"
    )


# -- 2. LaTeX paper built with latexmk, build output tracked by mistake ----------------------------

_TX_MAIN = lines(
    "% !TEX program = pdflatex",
    "\\documentclass[11pt]{article}",
    "\\usepackage[review]{acl}",
    "\\usepackage{times}",
    "\\usepackage{latexsym}",
    "\\usepackage[T1]{fontenc}",
    "\\usepackage[utf8]{inputenc}",
    "\\usepackage{microtype}",
    "\\usepackage{graphicx}",
    "\\usepackage{booktabs}",
    "\\usepackage{amsmath}",
    "\\usepackage{xcolor}",
    "",
    "\\newcommand{\\method}{\\textsc{LandmarkPool}}",
    "",
    "\\title{Landmark Pooling: Sparse Attention for Long-Document Retrieval}",
    "\\author{Anonymous ACL submission}",
    "",
    "\\begin{document}",
    "\\maketitle",
    "\\input{sections/abstract}",
    "\\input{sections/introduction}",
    "\\input{sections/related}",
    "\\input{sections/method}",
    "\\input{sections/experiments}",
    "\\input{sections/results}",
    "\\input{sections/conclusion}",
    "\\input{sections/limitations}",
    "",
    "\\bibliography{refs}",
    "",
    "\\appendix",
    "\\input{sections/appendix}",
    "\\end{document}",
)

_TX_RELATED_OLD = lines(
    "\\section{Related Work}",
    "\\label{sec:related}",
    "",
    "\\paragraph{Efficient attention.}",
    "Sparse patterns \\citep{child2019sparse} and low-rank projections \\citep{wang2020linformer}",
    "reduce the quadratic cost of self-attention.",
    "",
    "\\paragraph{Long-document retrieval.}",
    "Most dense retrievers truncate documents to 512 tokens \\citep{karpukhin2020dpr};",
    "passage-level aggregation \\citep{dai2019deeper} is the usual workaround.",
)

_TX_RELATED_NEW = lines(
    "\\section{Related Work}",
    "\\label{sec:related}",
    "",
    "\\paragraph{Efficient attention.}",
    "Sparse patterns \\citep{child2019sparse} and low-rank projections \\citep{wang2020linformer}",
    "reduce the quadratic cost of self-attention. Longformer \\citep{beltagy2020longformer}",
    "combines a sliding window with global tokens; LongT5 \\citep{guo-etal-2022-longt5}",
    "carries the idea to encoder--decoder pretraining with transient global attention.",
    "",
    "\\paragraph{Retrieval inside the model.}",
    "Landmark Attention \\citep{mohtashami2023landmark} inserts a landmark token per block",
    "and lets attention select whole blocks, the closest work to ours; Unlimiformer",
    "\\citep{bertsch2023unlimiformer} offloads cross-attention to a $k$NN index. Unlike both,",
    "\\method{} pools landmarks at retrieval time and needs no change to pretraining.",
    "",
    "\\paragraph{Long-document retrieval.}",
    "Most dense retrievers truncate documents to 512 tokens \\citep{karpukhin2020dpr};",
    "passage-level aggregation \\citep{dai2019deeper} is the usual workaround.",
)

_TX_BIB_OLD = [
    (
        "child2019sparse",
        "Generating Long Sequences with Sparse Transformers",
        "Child, Rewon and others",
        "2019",
        "arXiv",
    ),
    (
        "wang2020linformer",
        "Linformer: Self-Attention with Linear Complexity",
        "Wang, Sinong and others",
        "2020",
        "arXiv",
    ),
    (
        "karpukhin2020dpr",
        "Dense Passage Retrieval for Open-Domain Question Answering",
        "Karpukhin, Vladimir and others",
        "2020",
        "EMNLP",
    ),
    (
        "dai2019deeper",
        "Deeper Text Understanding for IR with Contextual Neural Language Modeling",
        "Dai, Zhuyun and Callan, Jamie",
        "2019",
        "SIGIR",
    ),
    (
        "nguyen2016msmarco",
        "MS MARCO: A Human Generated MAchine Reading COmprehension Dataset",
        "Nguyen, Tri and others",
        "2016",
        "CoCo@NIPS",
    ),
    (
        "thakur2021beir",
        "BEIR: A Heterogeneous Benchmark for Zero-shot Evaluation of Information Retrieval Models",
        "Thakur, Nandan and others",
        "2021",
        "NeurIPS Datasets and Benchmarks",
    ),
]
_TX_BIB_ADDED = [
    (
        "beltagy2020longformer",
        "Longformer: The Long-Document Transformer",
        "Beltagy, Iz and Peters, Matthew E. and Cohan, Arman",
        "2020",
        "arXiv",
    ),
    (
        "guo-etal-2022-longt5",
        "LongT5: Efficient Text-To-Text Transformer for Long Sequences",
        "Guo, Mandy and others",
        "2022",
        "Findings of NAACL",
    ),
    (
        "mohtashami2023landmark",
        "Landmark Attention: Random-Access Infinite Context Length for Transformers",
        "Mohtashami, Amirkeivan and Jaggi, Martin",
        "2023",
        "NeurIPS",
    ),
    (
        "bertsch2023unlimiformer",
        "Unlimiformer: Long-Range Transformers with Unlimited Length Input",
        "Bertsch, Amanda and others",
        "2023",
        "NeurIPS",
    ),
]


def _tx_bib(entries: list[tuple[str, str, str, str, str]]) -> str:
    out: list[str] = []
    for key, title, author, year, venue in entries:
        out += [
            f"@inproceedings{{{key},",
            f"  title = {{{title}}},",
            f"  author = {{{author}}},",
            f"  booktitle = {{{venue}}},",
            f"  year = {{{year}}}",
            "}",
            "",
        ]
    return lines(*out)


_TX_EXPERIMENTS = lines(
    "\\section{Experiments}",
    "\\label{sec:experiments}",
    "",
    "\\paragraph{Data.} We evaluate on MS MARCO Document \\citep{nguyen2016msmarco} and six long-document subsets of BEIR \\citep{thakur2021beir}. Documents average 1,870 tokens; we do not truncate.",  # noqa: E501
    "",
    "\\paragraph{Baselines.} We compare against FirstP, MaxP \\citep{dai2019deeper} and a Longformer-base bi-encoder, all fine-tuned with the same hard negatives.",  # noqa: E501
    "",
    "\\paragraph{Training.} All models train for 3 epochs with a batch of 64 on 4 A100 GPUs; see Appendix~\\ref{app:hparams}.",  # noqa: E501
)

# "Easier diffs": one sentence per line, and a reworded paragraph nobody asked about.
_TX_EXPERIMENTS_SPLIT = lines(
    "\\section{Experiments}",
    "\\label{sec:experiments}",
    "",
    "\\paragraph{Data.}",
    "We evaluate on MS MARCO Document \\citep{nguyen2016msmarco} and on six long-document subsets of BEIR \\citep{thakur2021beir}.",  # noqa: E501
    "Documents average 1,870 tokens, and we never truncate them.",
    "",
    "\\paragraph{Baselines.}",
    "We compare against FirstP, MaxP \\citep{dai2019deeper} and a Longformer-base bi-encoder \\citep{beltagy2020longformer}.",  # noqa: E501
    "All baselines are fine-tuned with the same hard negatives.",
    "",
    "\\paragraph{Training.}",
    "All models train for 3 epochs with a batch size of 64 on 4 A100 GPUs (Appendix~\\ref{app:hparams}).",  # noqa: E501
)


def _tx_build(salt: str, cites: list[str]) -> dict[str, str | bytes]:
    """What `latexmk -pdf main` leaves next to main.tex."""
    sections = ["Introduction", "Related Work", "Method", "Experiments", "Results", "Conclusion"]
    aux = [
        "\\relax ",
        "\\providecommand\\hyper@newdestlabel[2]{}",
        "\\providecommand\\HyperFirstAtBeginDocument{\\AtBeginDocument}",
        *(f"\\citation{{{c}}}" for c in cites),
        *(
            f"\\@writefile{{toc}}{{\\contentsline {{section}}{{\\numberline {{{i}}}{t}}}{{{i}}}{{section.{i}}}\\protected@file@percent }}"  # noqa: E501
            for i, t in enumerate(sections, 1)
        ),
        "\\bibstyle{acl_natbib}",
        "\\bibdata{refs}",
        f"\\gdef \\@abspage@last{{{9 + len(cites) // 4}}}",
    ]
    bbl = [
        "\\begin{thebibliography}{" + str(len(cites)) + "}",
        "\\expandafter\\ifx\\csname natexlab\\endcsname\\relax\\def\\natexlab#1{#1}\\fi",
        *(f"\\bibitem[{{{c}}}]{{{c}}}\n{c}." for c in sorted(cites)),
        "\\end{thebibliography}",
    ]
    return {
        "main.aux": lines(*aux),
        "main.bbl": lines(*bbl),
        "main.blg": lines(
            "This is BibTeX, Version 0.99d (TeX Live 2023)",
            "Capacity: max_strings=200000, hash_size=200000, hash_prime=170003",
            "The top-level auxiliary file: main.aux",
            "The style file: acl_natbib.bst",
            "Database file #1: refs.bib",
            f"You've used {len(cites)} entries,",
        ),
        "main.fdb_latexmk": lines(
            "# Fdb version 4",
            f'["bibtex main"] 1710{_hex(salt, 6)} "main.aux" "main.bbl" "main" 1710{_hex(salt + "b", 6)} 0',  # noqa: E501
            f'  "main.aux" 1710{_hex(salt + "c", 6)} {1900 + 40 * len(cites)} {_hex(salt + "aux")} "pdflatex"',  # noqa: E501
            f'  "refs.bib" 1710{_hex(salt + "d", 6)} {1200 + 180 * len(cites)} {_hex(salt + "bib")} ""',  # noqa: E501
            "  (generated)",
            '  "main.bbl"',
            '  "main.blg"',
            f'["pdflatex"] 1710{_hex(salt + "e", 6)} "main.tex" "main.pdf" "main" 1710{_hex(salt + "f", 6)} 0',  # noqa: E501
            f'  "main.tex" 1709{_hex("main", 6)} 1187 {_hex(salt + "tex")} ""',
        ),
        "main.fls": lines(
            "PWD /home/ana/papers/landmark-pooling",
            "INPUT /usr/local/texlive/2023/texmf.cnf",
            "INPUT /usr/local/texlive/2023/texmf-dist/web2c/texmf.cnf",
            "OUTPUT main.log",
            "INPUT main.tex",
            "INPUT ./acl.sty",
            *(f"INPUT ./sections/{n}.tex" for n in ("abstract", "introduction", "related")),
            "OUTPUT main.pdf",
            f"INPUT ./main.bbl % {salt}",
        ),
        "main.log": lines(
            "This is pdfTeX, Version 3.141592653-2.6-1.40.25 (TeX Live 2023) (preloaded format=pdflatex 2023.4.18)  12 MAR 2024 14:02",  # noqa: E501
            "entering extended mode",
            " restricted \\write18 enabled.",
            " %&-line parsing enabled.",
            "**main.tex",
            "(./main.tex",
            "LaTeX2e <2022-11-01> patch level 1",
            f"Output written on main.pdf ({9 + len(cites) // 4} pages, {412000 + 977 * len(cites)} bytes).",  # noqa: E501
        ),
        "main.out": lines(
            *(
                f"\\BOOKMARK [1][-]{{section.{i}}}{{\\376\\377\\000{t[0]}}}{{}}% {i}"
                for i, t in enumerate(sections, 1)
            )
        ),
        "main.synctex.gz": _blob(GZIP, "synctex" + salt, 160),
        "main.pdf": _blob(PDF, "pdf" + salt, 240),
    }


def _latex_files() -> dict[str, str | bytes]:
    old_cites = [k for k, *_ in _TX_BIB_OLD]
    files: dict[str, str | bytes] = {
        "main.tex": _TX_MAIN,
        "refs.bib": _tx_bib(_TX_BIB_OLD),
        "sections/abstract.tex": lines(
            "\\begin{abstract}",
            "Dense retrievers truncate long documents and lose the evidence in their tails.",
            "We propose \\method{}, which pools a small set of learned landmark tokens per",
            "block and attends sparsely over them. On MS MARCO Document \\method{} improves",
            "MRR@100 by 2.9 points over MaxP at a third of the inference cost.",
            "\\end{abstract}",
        ),
        "sections/introduction.tex": lines(
            "\\section{Introduction}",
            "Long documents are the norm in enterprise search. Yet most bi-encoders see",
            "only their first 512 tokens \\citep{karpukhin2020dpr}.",
        ),
        "sections/related.tex": _TX_RELATED_OLD,
        "sections/method.tex": lines(
            "\\section{Method}",
            "\\label{sec:method}",
            "\\begin{figure}[t]",
            "  \\centering",
            "  \\includegraphics[width=\\linewidth]{figures/architecture.pdf}",
            "  \\caption{\\method{}: one landmark per block; the query attends to the top-$k$ blocks.}",  # noqa: E501
            "\\end{figure}",
        ),
        "sections/experiments.tex": _TX_EXPERIMENTS,
        "sections/results.tex": lines(
            "\\section{Results}",
            "\\input{tables/main_results}",
            "\\begin{figure}[t]",
            "  \\includegraphics[width=\\linewidth]{figures/ablation_k.pdf}",
            "  \\caption{MRR@100 against the number of retrieved blocks $k$.}",
            "\\end{figure}",
        ),
        "sections/conclusion.tex": lines(
            "\\section{Conclusion}", "Landmarks make long documents cheap."
        ),
        "sections/limitations.tex": lines(
            "\\section*{Limitations}",
            "We evaluate on English only; landmark quality depends on the block size.",
        ),
        "sections/appendix.tex": lines(
            "\\section{Hyperparameters}",
            "\\label{app:hparams}",
            "\\input{tables/hparams}",
        ),
        "tables/main_results.tex": lines(
            "% Generated by scripts/make_tables.py from results/*.json -- do not edit by hand.",
            "\\begin{table}[t]\\centering\\small",
            "\\begin{tabular}{lrr}\\toprule",
            "Model & MRR@100 & Latency (ms) \\\\ \\midrule",
            "FirstP & 36.1 & 12 \\\\",
            "MaxP & 38.4 & 61 \\\\",
            "\\method{} & \\textbf{41.3} & 21 \\\\ \\bottomrule",
            "\\end{tabular}\\end{table}",
        ),
        "tables/hparams.tex": lines(
            "% Generated by scripts/make_tables.py from configs/*.yaml -- do not edit by hand.",
            "\\begin{tabular}{ll}\\toprule lr & 2e-5 \\\\ batch & 64 \\\\ \\bottomrule\\end{tabular}",  # noqa: E501
        ),
        "tables/beir.tex": lines(
            "% Generated by scripts/make_tables.py from results/beir_*.json -- do not edit by hand.",  # noqa: E501
            "\\begin{tabular}{lrrrrrr}\\toprule \\end{tabular}",
        ),
        "figures/architecture.pdf": _blob(PDF, "architecture", 200),
        "figures/ablation_k.pdf": _blob(PDF, "ablation_k", 200),
        "figures/latency.pdf": _blob(PDF, "latency", 200),
        "figures/attention_map.png": _blob(PNG, "attention_map", 180),
        "figures/src/plot_ablation.py": lines(
            "import json, matplotlib.pyplot as plt",
            "runs = [json.load(open(f'results/ablation_k{k}.json')) for k in (1, 2, 4, 8, 16)]",
            "plt.plot([r['k'] for r in runs], [r['mrr100'] for r in runs], marker='o')",
            "plt.savefig('figures/ablation_k.pdf', bbox_inches='tight')",
        ),
        "figures/src/plot_latency.py": lines(
            "import json, matplotlib.pyplot as plt",
            "lat = json.load(open('results/latency.json'))",
            "plt.bar(lat.keys(), lat.values()); plt.savefig('figures/latency.pdf')",
        ),
        "figures/src/architecture.drawio": lines(
            '<mxfile host="app.diagrams.net"><diagram name="arch" id="a1"></diagram></mxfile>'
        ),
        "scripts/make_tables.py": lines(
            '"""Write tables/*.tex from results/*.json."""',
            "import json, pathlib",
            "HEADER = '% Generated by scripts/make_tables.py from results/*.json -- do not edit by hand.'",  # noqa: E501
        ),
        "scripts/wordcount.sh": lines("#!/bin/sh", "texcount -inc -sum main.tex"),
        "configs/landmark_base.yaml": lines(
            "lr: 2.0e-5", "batch_size: 64", "block_size: 128", "top_k: 4"
        ),
        "configs/maxp.yaml": lines("lr: 2.0e-5", "batch_size: 64", "passage_len: 256"),
        "acl.sty": lines(
            "% This is the LaTeX style file for *ACL.",
            "\\NeedsTeXFormat{LaTeX2e}",
            "\\ProvidesPackage{acl}[2023/07/05 ACL style]",
            "\\newif\\ifacl@reviewmode",
            "\\DeclareOption{review}{\\acl@reviewmodetrue}",
            "\\DeclareOption{final}{\\acl@reviewmodefalse}",
            "\\ProcessOptions\\relax",
            "\\ifacl@reviewmode\\RequirePackage{lineno}\\linenumbers\\fi",
        ),
        "acl_natbib.bst": lines(
            "%% acl_natbib.bst", "ENTRY { address author booktitle title year } {} { label }"
        ),
        "latexmkrc": lines(
            "$pdf_mode = 1;",
            "$bibtex_use = 2;",
            "$out_dir = '.';",
            "$pdflatex = 'pdflatex -synctex=1 -interaction=nonstopmode %O %S';",
        ),
        "Makefile": lines("all:", "\tlatexmk -pdf main", "", "clean:", "\tlatexmk -C"),
        "README.md": lines(
            "# Landmark Pooling (ACL 2024 submission)",
            "",
            "`make` builds main.pdf with latexmk. Tables come from `scripts/make_tables.py`;",
            "figures from `figures/src/`. Anonymous until camera-ready: keep `[review]`.",
        ),
        "reviews/arr-feb-2024.md": lines(
            "# ARR February reviews",
            "",
            "R2: related work misses the 2023 long-context papers (Landmark Attention!).",
        ),
        "reviews/response.md": lines("# Author response", "", "- R2: we will extend Section 2."),
        # The first build, committed by accident with `git add .`.
        **_tx_build("first", old_cites),
    }
    for name, mrr in (("k1", 38.9), ("k2", 40.2), ("k4", 41.3), ("k8", 41.1), ("k16", 40.7)):
        files[f"results/ablation_{name}.json"] = (
            json.dumps({"k": int(name[1:]), "mrr100": mrr}) + "\n"
        )
    files["results/latency.json"] = (
        json.dumps({"FirstP": 12, "MaxP": 61, "LandmarkPool": 21}) + "\n"
    )
    return files


def _latex(s: Scene) -> None:
    s.commit("ARR February submission", _latex_files(), days_ago=60)
    # Noticed the build files in `git status` and ignored them — but they stay tracked.
    s.commit(
        "ignore latexmk output",
        {
            ".gitignore": lines(
                "*.aux",
                "*.bbl",
                "*.blg",
                "*.fdb_latexmk",
                "*.fls",
                "*.log",
                "*.out",
                "*.synctex.gz",
                "main.pdf",
                ".DS_Store",
            ),
        },
        days_ago=40,
    )
    s.commit(
        "author response notes",
        {"reviews/response.md": _read(s, "reviews/response.md") + "- R1: add latency table.\n"},
        days_ago=5,
    )
    s.intent(
        "Rewrite the related-work section to cover the 2023 long-context papers reviewer 2 "
        "asked for (Longformer follow-ups, LongT5, Landmark Attention, Unlimiformer) and add "
        "their BibTeX entries",
        {"sections/related.tex": "the section to rewrite", "refs.bib": "new entries"},
        hours_ago=1,
    )
    all_cites = [k for k, *_ in _TX_BIB_OLD + _TX_BIB_ADDED]
    s.agent(
        {
            "sections/related.tex": _TX_RELATED_NEW,
            "refs.bib": _tx_bib(_TX_BIB_OLD + _TX_BIB_ADDED),
            # "The line numbers clutter the PDF": dropping [review] de-anonymises the
            # layout of a paper still under double-blind review.
            "main.tex": _TX_MAIN.replace("\\usepackage[review]{acl}", "\\usepackage{acl}"),
            "sections/experiments.tex": _TX_EXPERIMENTS_SPLIT,
            # `latexmk -pdf main` to check the citations resolve.
            **_tx_build("second", all_cites),
        }
    )
    # While the agent works, the user fixes the headline number in the abstract by hand
    # (the rerun finished overnight).
    _by_hand(
        s,
        {
            "sections/abstract.tex": _read(s, "sections/abstract.tex").replace(
                "by 2.9 points", "by 3.1 points"
            )
        },
    )
    s.fine(
        "sections/related.tex",
        "refs.bib",
        "sections/abstract.tex",  # the user's own edit
    )
    s.drift("main.tex", "sections/experiments.tex")
    # Tracked since the first commit (before the .gitignore lines): latexmk rewrote them all.
    # (main.out, the PDF outline, is rewritten byte for byte the same: no section changed.)
    s.excluded(*(k for k in _tx_build("second", all_cites) if k != "main.out"))
    s.safe_commit()
    s.note = (
        "no checkpoint; latexmk output tracked by mistake (aux, bbl, fdb_latexmk, synctex.gz, "
        "pdf) excluded; the user's own abstract edit in scope; [review] dropped is drift"
    )


# -- 3. AWS CDK app in TypeScript: tsc output beside the sources (generated flood) -----------------

_CDK_ACCOUNT = "111122223333"


def _cdk_context(regions: list[str]) -> str:
    zones = {
        "eu-west-1": ["eu-west-1a", "eu-west-1b", "eu-west-1c"],
        "us-east-1": ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1e"],
    }
    data: dict[str, object] = {
        f"availability-zones:account={_CDK_ACCOUNT}:region={r}": zones[r] for r in regions
    }
    data["acknowledged-issue-numbers"] = [28816]
    return json.dumps(data, indent=2) + "\n"


_CDK_QUEUE_OLD = lines(
    "import * as cdk from 'aws-cdk-lib';",
    "import * as sqs from 'aws-cdk-lib/aws-sqs';",
    "import * as lambda from 'aws-cdk-lib/aws-lambda';",
    "import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';",
    "import { Construct } from 'constructs';",
    "import { NodeFunction } from './constructs/node-function';",
    "",
    "export interface QueueStackProps extends cdk.StackProps {",
    "  readonly tableName: string;",
    "}",
    "",
    "export class QueueStack extends cdk.Stack {",
    "  public readonly ordersQueue: sqs.Queue;",
    "",
    "  constructor(scope: Construct, id: string, props: QueueStackProps) {",
    "    super(scope, id, props);",
    "",
    "    this.ordersQueue = new sqs.Queue(this, 'OrdersQueue', {",
    "      visibilityTimeout: cdk.Duration.seconds(90),",
    "      encryption: sqs.QueueEncryption.SQS_MANAGED,",
    "    });",
    "",
    "    const processOrder = new NodeFunction(this, 'ProcessOrder', {",
    "      entry: 'lambda/process-order/index.ts',",
    "      environment: { TABLE_NAME: props.tableName },",
    "    });",
    "    processOrder.addEventSource(new SqsEventSource(this.ordersQueue, { batchSize: 10 }));",
    "  }",
    "}",
)

_CDK_QUEUE_NEW = lines(
    "import * as cdk from 'aws-cdk-lib';",
    "import * as sqs from 'aws-cdk-lib/aws-sqs';",
    "import * as lambda from 'aws-cdk-lib/aws-lambda';",
    "import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';",
    "import { Construct } from 'constructs';",
    "import { NodeFunction } from './constructs/node-function';",
    "",
    "export interface QueueStackProps extends cdk.StackProps {",
    "  readonly tableName: string;",
    "}",
    "",
    "export class QueueStack extends cdk.Stack {",
    "  public readonly ordersQueue: sqs.Queue;",
    "  public readonly ordersDeadLetterQueue: sqs.Queue;",
    "",
    "  constructor(scope: Construct, id: string, props: QueueStackProps) {",
    "    super(scope, id, props);",
    "",
    "    this.ordersDeadLetterQueue = new sqs.Queue(this, 'OrdersDLQ', {",
    "      retentionPeriod: cdk.Duration.days(14),",
    "      encryption: sqs.QueueEncryption.SQS_MANAGED,",
    "    });",
    "",
    "    this.ordersQueue = new sqs.Queue(this, 'OrdersQueue', {",
    "      visibilityTimeout: cdk.Duration.seconds(90),",
    "      encryption: sqs.QueueEncryption.SQS_MANAGED,",
    "      deadLetterQueue: { queue: this.ordersDeadLetterQueue, maxReceiveCount: 5 },",
    "    });",
    "",
    "    const processOrder = new NodeFunction(this, 'ProcessOrder', {",
    "      entry: 'lambda/process-order/index.ts',",
    "      environment: { TABLE_NAME: props.tableName },",
    "    });",
    "    processOrder.addEventSource(new SqsEventSource(this.ordersQueue, { batchSize: 10 }));",
    "  }",
    "}",
)

_CDK_MONITORING_OLD = lines(
    "import * as cdk from 'aws-cdk-lib';",
    "import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';",
    "import * as sqs from 'aws-cdk-lib/aws-sqs';",
    "import { Construct } from 'constructs';",
    "import { AlarmTopic } from './constructs/alarm-topic';",
    "",
    "export interface MonitoringStackProps extends cdk.StackProps {",
    "  readonly ordersQueue: sqs.IQueue;",
    "  readonly onCallEmail: string;",
    "}",
    "",
    "export class MonitoringStack extends cdk.Stack {",
    "  constructor(scope: Construct, id: string, props: MonitoringStackProps) {",
    "    super(scope, id, props);",
    "    const topic = new AlarmTopic(this, 'OnCall', { email: props.onCallEmail });",
    "",
    "    new cloudwatch.Alarm(this, 'OrdersBacklog', {",
    "      metric: props.ordersQueue.metricApproximateAgeOfOldestMessage(),",
    "      threshold: 600,",
    "      evaluationPeriods: 3,",
    "    }).addAlarmAction(topic.action);",
    "  }",
    "}",
)

_CDK_MONITORING_NEW = lines(
    "import * as cdk from 'aws-cdk-lib';",
    "import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';",
    "import * as sqs from 'aws-cdk-lib/aws-sqs';",
    "import { Construct } from 'constructs';",
    "import { AlarmTopic } from './constructs/alarm-topic';",
    "",
    "export interface MonitoringStackProps extends cdk.StackProps {",
    "  readonly ordersQueue: sqs.IQueue;",
    "  readonly ordersDeadLetterQueue: sqs.IQueue;",
    "  readonly onCallEmail: string;",
    "}",
    "",
    "export class MonitoringStack extends cdk.Stack {",
    "  constructor(scope: Construct, id: string, props: MonitoringStackProps) {",
    "    super(scope, id, props);",
    "    const topic = new AlarmTopic(this, 'OnCall', { email: props.onCallEmail });",
    "",
    "    new cloudwatch.Alarm(this, 'OrdersBacklog', {",
    "      metric: props.ordersQueue.metricApproximateAgeOfOldestMessage(),",
    "      threshold: 600,",
    "      evaluationPeriods: 3,",
    "    }).addAlarmAction(topic.action);",
    "",
    "    // Any message in the DLQ is an order we failed five times: page someone.",
    "    new cloudwatch.Alarm(this, 'OrdersDeadLetters', {",
    "      alarmDescription: 'Orders landed in the dead-letter queue',",
    "      metric: props.ordersDeadLetterQueue.metricApproximateNumberOfMessagesVisible({",
    "        period: cdk.Duration.minutes(1),",
    "        statistic: cloudwatch.Stats.MAXIMUM,",
    "      }),",
    "      threshold: 1,",
    "      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,",
    "      evaluationPeriods: 1,",
    "      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,",
    "    }).addAlarmAction(topic.action);",
    "  }",
    "}",
)

_CDK_BIN_OLD = lines(
    "#!/usr/bin/env node",
    "import 'source-map-support/register';",
    "import * as cdk from 'aws-cdk-lib';",
    "import { config } from '../lib/config';",
    "import { NetworkStack } from '../lib/network-stack';",
    "import { DatabaseStack } from '../lib/database-stack';",
    "import { QueueStack } from '../lib/queue-stack';",
    "import { ApiStack } from '../lib/api-stack';",
    "import { MonitoringStack } from '../lib/monitoring-stack';",
    "",
    "const app = new cdk.App();",
    "const env = { account: config.account, region: config.region };",
    "",
    "const network = new NetworkStack(app, 'OrdersNetwork', { env });",
    "const db = new DatabaseStack(app, 'OrdersDatabase', { env });",
    "const queues = new QueueStack(app, 'OrdersQueues', { env, tableName: db.table.tableName });",
    "new ApiStack(app, 'OrdersApi', { env, vpc: network.vpc, table: db.table, queue: queues.ordersQueue });",  # noqa: E501
    "new MonitoringStack(app, 'OrdersMonitoring', {",
    "  env,",
    "  ordersQueue: queues.ordersQueue,",
    "  onCallEmail: config.onCallEmail,",
    "});",
)

_CDK_CONFIG = lines(
    "export const config = {",
    f"  account: process.env.CDK_DEFAULT_ACCOUNT ?? '{_CDK_ACCOUNT}',",
    "  region: process.env.CDK_DEFAULT_REGION ?? 'eu-west-1',",
    "  onCallEmail: 'orders-oncall@example.com',",
    "  stage: process.env.STAGE ?? 'dev',",
    "};",
)

_CDK_API = lines(
    "import * as cdk from 'aws-cdk-lib';",
    "import * as apigw from 'aws-cdk-lib/aws-apigateway';",
    "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';",
    "import * as ec2 from 'aws-cdk-lib/aws-ec2';",
    "import * as sqs from 'aws-cdk-lib/aws-sqs';",
    "import { Construct } from 'constructs';",
    "import { NodeFunction } from './constructs/node-function';",
    "",
    "export interface ApiStackProps extends cdk.StackProps {",
    "  readonly vpc: ec2.IVpc;",
    "  readonly table: dynamodb.ITable;",
    "  readonly queue: sqs.IQueue;",
    "}",
    "",
    "export class ApiStack extends cdk.Stack {",
    "  constructor(scope: Construct, id: string, props: ApiStackProps) {",
    "    super(scope, id, props);",
    "    const api = new apigw.RestApi(this, 'OrdersApi', {",
    "      deployOptions: { throttlingRateLimit: 50, throttlingBurstLimit: 100 },",
    "      defaultCorsPreflightOptions: { allowOrigins: ['https://shop.example.com'] },",
    "    });",
    "    const createOrder = new NodeFunction(this, 'CreateOrder', {",
    "      entry: 'lambda/create-order/index.ts',",
    "      environment: { QUEUE_URL: props.queue.queueUrl },",
    "    });",
    "    props.queue.grantSendMessages(createOrder);",
    "    api.root.addResource('orders').addMethod('POST', new apigw.LambdaIntegration(createOrder));",  # noqa: E501
    "  }",
    "}",
)

_CDK_DEPLOY = lines(
    "name: deploy",
    "on:",
    "  push:",
    "    branches: [main]",
    "permissions:",
    "  id-token: write",
    "  contents: read",
    "jobs:",
    "  deploy:",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: actions/setup-node@v4",
    "        with:",
    "          node-version: 18",
    "          cache: npm",
    "      - run: npm ci",
    "      - run: npm test",
    "      - uses: aws-actions/configure-aws-credentials@v2",
    "        with:",
    f"          role-to-assume: arn:aws:iam::{_CDK_ACCOUNT}:role/github-deploy",
    "          aws-region: eu-west-1",
    "      - run: npx cdk deploy --all --require-approval never",
)

#: Every TypeScript source: path (without .ts) -> the names it exports.
_CDK_SOURCES: dict[str, list[str]] = {
    "bin/orders-infra": [],
    "lib/config": ["config"],
    "lib/network-stack": ["NetworkStack"],
    "lib/database-stack": ["DatabaseStack"],
    "lib/queue-stack": ["QueueStack"],
    "lib/api-stack": ["ApiStack"],
    "lib/monitoring-stack": ["MonitoringStack"],
    "lib/constructs/node-function": ["NodeFunction"],
    "lib/constructs/alarm-topic": ["AlarmTopic"],
    "lambda/create-order/index": ["handler"],
    "lambda/process-order/index": ["handler"],
    "lambda/get-order/index": ["handler"],
    "lambda/list-orders/index": ["handler"],
    "lambda/cancel-order/index": ["handler"],
    "lambda/notify-shipping/index": ["handler"],
    "lambda/shared/db": ["putOrder", "getOrder"],
    "lambda/shared/logger": ["logger"],
    "lambda/shared/validation": ["parseOrder"],
    "test/queue-stack.test": [],
    "test/monitoring-stack.test": [],
    "test/api-stack.test": [],
    "test/database-stack.test": [],
}


def _tsc_out(stem: str, names: list[str]) -> dict[str, str]:
    """What `npx tsc` emits next to one source with the CDK template's tsconfig
    (declaration: true, inlineSourceMap: true)."""
    js = lines(
        '"use strict";',
        'Object.defineProperty(exports, "__esModule", { value: true });',
        *(f"exports.{n} = void 0;" for n in names),
        *(['const cdk = require("aws-cdk-lib");'] if stem.startswith("lib/") else []),
        *(f"exports.{n} = {n};" for n in names),
        f"//# sourceMappingURL=data:application/json;base64,{_hex(stem, 48)}",
    )
    decls: list[str] = []
    for n in names:
        if n[0].isupper():
            decls += [
                "import { Construct } from 'constructs';",
                f"export declare class {n} extends Construct {{",
                "    constructor(scope: Construct, id: string, props?: unknown);",
                "}",
            ]
        elif n == "handler":
            decls.append("export declare const handler: (event: unknown) => Promise<void>;")
        else:
            decls.append(f"export declare const {n}: unknown;")
    return {f"{stem}.js": js, f"{stem}.d.ts": lines(*(decls or ["export {};"]))}


def _cdk_out(dlq: bool) -> dict[str, str]:
    stacks = ["OrdersNetwork", "OrdersDatabase", "OrdersQueues", "OrdersApi", "OrdersMonitoring"]
    files: dict[str, str] = {
        "cdk.out/cdk.out": json.dumps({"version": "36.0.0"}) + "\n",
        "cdk.out/manifest.json": json.dumps(
            {
                "version": "36.0.0",
                "artifacts": {
                    s: {
                        "type": "aws:cloudformation:stack",
                        "environment": f"aws://{_CDK_ACCOUNT}/us-east-1",
                    }
                    for s in stacks
                },
            },
            indent=2,
        )
        + "\n",
        "cdk.out/tree.json": json.dumps(
            {"version": "tree-0.1", "tree": {"id": "App", "path": "", "children": {}}}
        )
        + "\n",
    }
    for stack in stacks:
        resources: dict[str, object] = {"CDKMetadata": {"Type": "AWS::CDK::Metadata"}}
        if stack == "OrdersQueues" and dlq:
            resources["OrdersDLQ1A2B3C4D"] = {"Type": "AWS::SQS::Queue"}
        files[f"cdk.out/{stack}.template.json"] = (
            json.dumps({"Resources": resources}, indent=1) + "\n"
        )
        files[f"cdk.out/{stack}.assets.json"] = (
            json.dumps({"version": "36.0.0", "files": {}}) + "\n"
        )
    asset = _hex("process-order-bundle", 64)
    files[f"cdk.out/asset.{asset}/index.js"] = lines(
        '"use strict";',
        "var __defProp = Object.defineProperty;",
        "var __getOwnPropDesc = Object.getOwnPropertyDescriptor;",
        "// lambda/process-order/index.ts",
        "var process_order_exports = {};",
    )
    return files


def _cdk_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # The repository began as a plain Node project; `cdk init` ran in a scratch folder
        # and only its sources were copied over — its .gitignore (*.js, *.d.ts, cdk.out)
        # never came along.
        ".gitignore": lines("node_modules/", ".env", "coverage/"),
        ".npmignore": lines("*.ts", "!*.d.ts", "cdk.out"),
        "cdk.json": json.dumps(
            {
                "app": "npx ts-node --prefer-ts-exts bin/orders-infra.ts",
                "watch": {
                    "include": ["**"],
                    "exclude": [
                        "README.md",
                        "cdk*.json",
                        "**/*.d.ts",
                        "**/*.js",
                        "node_modules",
                        "test",
                    ],
                },
                "context": {
                    "@aws-cdk/aws-lambda:recognizeLayerVersion": True,
                    "@aws-cdk/core:stackRelativeExports": True,
                },
            },
            indent=2,
        )
        + "\n",
        "cdk.context.json": _cdk_context(["eu-west-1"]),
        "package.json": json.dumps(
            {
                "name": "orders-infra",
                "version": "0.3.0",
                "bin": {"orders-infra": "bin/orders-infra.js"},
                "scripts": {"build": "tsc", "watch": "tsc -w", "test": "jest", "cdk": "cdk"},
                "devDependencies": {
                    "@types/jest": "^29.5.12",
                    "@types/node": "20.11.30",
                    "aws-cdk": "2.133.0",
                    "esbuild": "^0.20.2",
                    "jest": "^29.7.0",
                    "ts-jest": "^29.1.2",
                    "ts-node": "^10.9.2",
                    "typescript": "~5.4.3",
                },
                "dependencies": {
                    "aws-cdk-lib": "2.133.0",
                    "constructs": "^10.0.0",
                    "source-map-support": "^0.5.21",
                },
            },
            indent=2,
        )
        + "\n",
        "package-lock.json": json.dumps(
            {
                "name": "orders-infra",
                "version": "0.3.0",
                "lockfileVersion": 3,
                "requires": True,
                "packages": {
                    "": {"name": "orders-infra", "version": "0.3.0"},
                    "node_modules/aws-cdk-lib": {
                        "version": "2.133.0",
                        "resolved": "https://registry.npmjs.org/aws-cdk-lib/-/aws-cdk-lib-2.133.0.tgz",
                        "integrity": "sha512-" + _hex("cdklib", 40),
                    },
                    "node_modules/constructs": {
                        "version": "10.3.0",
                        "resolved": "https://registry.npmjs.org/constructs/-/constructs-10.3.0.tgz",
                        "integrity": "sha512-" + _hex("constructs", 40),
                    },
                },
            },
            indent=2,
        )
        + "\n",
        "tsconfig.json": json.dumps(
            {
                "compilerOptions": {
                    "target": "ES2020",
                    "module": "commonjs",
                    "lib": ["es2020", "dom"],
                    "declaration": True,
                    "strict": True,
                    "noImplicitAny": True,
                    "inlineSourceMap": True,
                    "inlineSources": True,
                    "experimentalDecorators": True,
                    "typeRoots": ["./node_modules/@types"],
                },
                "exclude": ["node_modules", "cdk.out"],
            },
            indent=2,
        )
        + "\n",
        "jest.config.js": lines(
            "module.exports = {",
            "  testEnvironment: 'node',",
            "  roots: ['<rootDir>/test'],",
            "  testMatch: ['**/*.test.ts'],",
            "  transform: { '^.+\\\\.tsx?$': 'ts-jest' },",
            "};",
        ),
        ".eslintrc.json": json.dumps(
            {
                "root": True,
                "parser": "@typescript-eslint/parser",
                "extends": ["eslint:recommended"],
            },
            indent=2,
        )
        + "\n",
        "README.md": lines(
            "# orders-infra",
            "",
            "CDK app for the orders service: API Gateway → Lambda → SQS → Lambda → DynamoDB.",
            "",
            "* `npm test` — jest assertions against the synthesized templates",
            "* `npx cdk diff` / `npx cdk deploy --all`",
        ),
        "docs/architecture.md": lines(
            "# Architecture",
            "",
            "POST /orders enqueues; ProcessOrder drains the queue into DynamoDB.",
        ),
        "docs/runbook.md": lines(
            "# Runbook",
            "",
            "## OrdersBacklog alarm",
            "",
            "The oldest message is over 10 minutes old. Check ProcessOrder's errors in",
            "CloudWatch Logs (`/aws/lambda/OrdersQueues-ProcessOrder*`).",
        ),
        ".github/workflows/deploy.yml": _CDK_DEPLOY,
        "bin/orders-infra.ts": _CDK_BIN_OLD,
        "lib/config.ts": _CDK_CONFIG,
        "lib/network-stack.ts": lines(
            "import * as cdk from 'aws-cdk-lib';",
            "import * as ec2 from 'aws-cdk-lib/aws-ec2';",
            "import { Construct } from 'constructs';",
            "export class NetworkStack extends cdk.Stack {",
            "  public readonly vpc: ec2.Vpc;",
            "  constructor(scope: Construct, id: string, props?: cdk.StackProps) {",
            "    super(scope, id, props);",
            "    this.vpc = new ec2.Vpc(this, 'Vpc', { maxAzs: 2, natGateways: 1 });",
            "  }",
            "}",
        ),
        "lib/database-stack.ts": lines(
            "import * as cdk from 'aws-cdk-lib';",
            "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';",
            "import { Construct } from 'constructs';",
            "export class DatabaseStack extends cdk.Stack {",
            "  public readonly table: dynamodb.Table;",
            "  constructor(scope: Construct, id: string, props?: cdk.StackProps) {",
            "    super(scope, id, props);",
            "    this.table = new dynamodb.Table(this, 'Orders', {",
            "      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },",
            "      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,",
            "      pointInTimeRecovery: true,",
            "    });",
            "  }",
            "}",
        ),
        "lib/queue-stack.ts": _CDK_QUEUE_OLD,
        "lib/api-stack.ts": _CDK_API,
        "lib/monitoring-stack.ts": _CDK_MONITORING_OLD,
        "lib/constructs/node-function.ts": lines(
            "import * as lambda from 'aws-cdk-lib/aws-lambda';",
            "import { NodejsFunction, NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';",
            "import { Construct } from 'constructs';",
            "export class NodeFunction extends NodejsFunction {",
            "  constructor(scope: Construct, id: string, props: NodejsFunctionProps) {",
            "    super(scope, id, { runtime: lambda.Runtime.NODEJS_20_X, tracing: lambda.Tracing.ACTIVE, ...props });",  # noqa: E501
            "  }",
            "}",
        ),
        "lib/constructs/alarm-topic.ts": lines(
            "import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';",
            "import * as sns from 'aws-cdk-lib/aws-sns';",
            "import * as subs from 'aws-cdk-lib/aws-sns-subscriptions';",
            "import { Construct } from 'constructs';",
            "export class AlarmTopic extends Construct {",
            "  public readonly action: actions.SnsAction;",
            "  constructor(scope: Construct, id: string, props: { email: string }) {",
            "    super(scope, id);",
            "    const topic = new sns.Topic(this, 'Topic');",
            "    topic.addSubscription(new subs.EmailSubscription(props.email));",
            "    this.action = new actions.SnsAction(topic);",
            "  }",
            "}",
        ),
        "lambda/shared/db.ts": lines(
            "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
            "import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';",  # noqa: E501
            "const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));",
            "export const putOrder = (o: Record<string, unknown>) => doc.send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: o }));",  # noqa: E501
            "export const getOrder = (id: string) => doc.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: id } }));",  # noqa: E501
        ),
        "lambda/shared/logger.ts": lines(
            "import { Logger } from '@aws-lambda-powertools/logger';",
            "export const logger = new Logger({ serviceName: 'orders' });",
        ),
        "lambda/shared/validation.ts": lines(
            "export function parseOrder(body: string | null) {",
            "  const o = JSON.parse(body ?? '{}');",
            "  if (!o.sku || !(o.qty > 0)) throw new Error('invalid order');",
            "  return o as { sku: string; qty: number };",
            "}",
        ),
    }
    handlers = {
        "create-order": "parse, then enqueue",
        "process-order": "write each SQS record to DynamoDB",
        "get-order": "read one order",
        "list-orders": "query by customer",
        "cancel-order": "mark cancelled",
        "notify-shipping": "tell the warehouse",
    }
    for name, what in handlers.items():
        files[f"lambda/{name}/index.ts"] = lines(
            f"// {name}: {what}.",
            "import { logger } from '../shared/logger';",
            "export const handler = async (event: unknown) => {",
            f"  logger.info('{name}', {{ event }});",
            "};",
        )
    for stack in ("queue", "monitoring", "api", "database"):
        cls = stack.capitalize() + "Stack"
        files[f"test/{stack}-stack.test.ts"] = lines(
            "import * as cdk from 'aws-cdk-lib';",
            "import { Template } from 'aws-cdk-lib/assertions';",
            f"import {{ {cls} }} from '../lib/{stack}-stack';",
            "",
            f"test('{cls} synthesizes', () => {{",
            "  const app = new cdk.App();",
            f"  const stack = new {cls}(app, 'Test', {{}} as any);",
            "  Template.fromStack(stack);",
            "});",
        )
    return files


def _cdk(s: Scene) -> None:
    s.commit("orders-infra 0.3.0", _cdk_files(), days_ago=45)
    s.commit(
        "runbook: backlog alarm",
        {"docs/runbook.md": _read(s, "docs/runbook.md") + "\nEscalate to #orders after 30 min.\n"},
        days_ago=4,
    )
    s.intent(
        "Give the orders queue a dead-letter queue (maxReceiveCount 5, 14-day retention) and "
        "a CloudWatch alarm on DLQ depth that notifies the on-call topic; cover both with tests",
        {
            "lib/queue-stack.ts": "the orders queue",
            "lib/monitoring-stack.ts": "alarms and the on-call topic",
        },
        hours_ago=2,
    )
    s.checkpoint("before the DLQ")
    s.agent(
        {
            "lib/queue-stack.ts": _CDK_QUEUE_NEW,
            "lib/monitoring-stack.ts": _CDK_MONITORING_NEW,
            # The monitoring stack now needs the DLQ handed to it.
            "bin/orders-infra.ts": _CDK_BIN_OLD.replace(
                "  ordersQueue: queues.ordersQueue,\n",
                "  ordersQueue: queues.ordersQueue,\n"
                "  ordersDeadLetterQueue: queues.ordersDeadLetterQueue,\n",
            ),
            "test/queue-stack.test.ts": lines(
                "import * as cdk from 'aws-cdk-lib';",
                "import { Match, Template } from 'aws-cdk-lib/assertions';",
                "import { QueueStack } from '../lib/queue-stack';",
                "",
                "test('orders queue redrives to a DLQ after 5 receives', () => {",
                "  const app = new cdk.App();",
                "  const t = Template.fromStack(new QueueStack(app, 'Test', { tableName: 'orders' }));",  # noqa: E501
                "  t.resourceCountIs('AWS::SQS::Queue', 2);",
                "  t.hasResourceProperties('AWS::SQS::Queue', {",
                "    RedrivePolicy: { maxReceiveCount: 5, deadLetterTargetArn: Match.anyValue() },",
                "  });",
                "  t.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1209600 });",  # noqa: E501
                "});",
            ),
            "test/monitoring-stack.test.ts": lines(
                "import * as cdk from 'aws-cdk-lib';",
                "import * as sqs from 'aws-cdk-lib/aws-sqs';",
                "import { Template } from 'aws-cdk-lib/assertions';",
                "import { MonitoringStack } from '../lib/monitoring-stack';",
                "",
                "test('alarms when anything is in the DLQ', () => {",
                "  const app = new cdk.App();",
                "  const deps = new cdk.Stack(app, 'Deps');",
                "  const stack = new MonitoringStack(app, 'Test', {",
                "    ordersQueue: new sqs.Queue(deps, 'Q'),",
                "    ordersDeadLetterQueue: new sqs.Queue(deps, 'DLQ'),",
                "    onCallEmail: 'oncall@example.com',",
                "  });",
                "  Template.fromStack(stack).hasResourceProperties('AWS::CloudWatch::Alarm', {",
                "    MetricName: 'ApproximateNumberOfMessagesVisible',",
                "    Threshold: 1,",
                "    ComparisonOperator: 'GreaterThanOrEqualToThreshold',",
                "  });",
                "});",
            ),
        }
    )
    mid = s.checkpoint("DLQ and alarm, tests green")
    compiled: dict[str, str | bytes] = {}
    for stem, names in _CDK_SOURCES.items():
        compiled.update(_tsc_out(stem, names))
    s.agent(
        {
            "docs/runbook.md": _read(s, "docs/runbook.md")
            + lines(
                "",
                "## OrdersDeadLetters alarm",
                "",
                "An order failed processing five times and sits in the DLQ. Fix the cause,",
                "then redrive from the SQS console (Start DLQ redrive) back to OrdersQueue.",
            ),
            # `cdk synth` failed without credentials for the account's region, so the
            # agent made the defaults "work" — every stack now targets us-east-1.
            "lib/config.ts": _CDK_CONFIG.replace("'eu-west-1'", "'us-east-1'"),
            # "While in there": looser throttling and CORS on the API nobody asked about.
            "lib/api-stack.ts": _CDK_API.replace(
                "throttlingRateLimit: 50, throttlingBurstLimit: 100",
                "throttlingRateLimit: 500, throttlingBurstLimit: 1000",
            ).replace(
                "allowOrigins: ['https://shop.example.com']", "allowOrigins: apigw.Cors.ALL_ORIGINS"
            ),
            ".github/workflows/deploy.yml": _CDK_DEPLOY.replace(
                "node-version: 18", "node-version: 20"
            ).replace("configure-aws-credentials@v2", "configure-aws-credentials@v4"),
            # `npx tsc` to type-check: with declaration and no outDir it writes a .js and a
            # .d.ts beside every source, none of them ignored here.
            **compiled,
            # `npx cdk synth`: the cloud assembly, and a context lookup for the new region.
            **_cdk_out(dlq=True),
            "cdk.context.json": _cdk_context(["eu-west-1", "us-east-1"]),
        }
    )
    s.fine(
        "lib/queue-stack.ts",
        "lib/monitoring-stack.ts",
        "bin/orders-infra.ts",  # wires the DLQ into the monitoring stack
        "test/queue-stack.test.ts",
        "test/monitoring-stack.test.ts",
        "docs/runbook.md",  # what on-call does when the new alarm fires
    )
    s.drift("lib/config.ts", "lib/api-stack.ts", ".github/workflows/deploy.yml")
    # cdk.context.json is committed by convention, but it is CDK's cache of lookups, written
    # by `cdk synth` only; its new key is a consequence of the config drift, yet nobody
    # edits it by hand. Debatable: a reviewer might call it drift alongside lib/config.ts.
    s.excluded(*compiled, *_cdk_out(dlq=True), "cdk.context.json")
    s.safe_checkpoint(mid)
    s.note = (
        "checkpoints before and mid (clean); the second turn added the region/API/CI drift "
        "and ran tsc (a .js and .d.ts beside every .ts) and cdk synth: mid is safe"
    )


# -- 4. Docusaurus docs site: a git mv with edits ------------------------------------------------

_DS_GUIDES = [
    "guides/deploying-to-kubernetes",
    "guides/deploying-with-docker",
    "guides/targeting-rules",
    "guides/percentage-rollouts",
    "guides/sdk-javascript",
    "guides/sdk-python",
    "guides/sdk-go",
]


def _ds_sidebars(deployment: bool) -> str:
    guides = [g for g in _DS_GUIDES if not (deployment and g.endswith("kubernetes"))]
    out = [
        "// @ts-check",
        "",
        "/** @type {import('@docusaurus/plugin-content-docs').SidebarsConfig} */",
        "const sidebars = {",
        "  docs: [",
        "    'intro',",
        "    {",
        "      type: 'category',",
        "      label: 'Getting started',",
        "      items: ['getting-started/installation', 'getting-started/quickstart', 'getting-started/configuration'],",  # noqa: E501
        "    },",
    ]
    if deployment:
        out += [
            "    {",
            "      type: 'category',",
            "      label: 'Deployment',",
            "      items: ['deployment/kubernetes'],",
            "    },",
        ]
    out += [
        "    {",
        "      type: 'category',",
        "      label: 'Guides',",
        "      items: [",
        *(f"        '{g}'," for g in guides),
        "      ],",
        "    },",
        "    {",
        "      type: 'category',",
        "      label: 'Reference',",
        "      items: ['reference/api', 'reference/cli', 'reference/environment-variables', 'reference/sdk-options'],",  # noqa: E501
        "    },",
        "    'faq',",
        "  ],",
        "};",
        "",
        "module.exports = sidebars;",
    ]
    return lines(*out)


def _ds_config(redirects: bool) -> str:
    plugins = (
        [
            "  plugins: [",
            "    [",
            "      '@docusaurus/plugin-client-redirects',",
            "      {",
            "        redirects: [",
            "          { from: '/docs/guides/deploying-to-kubernetes', to: '/docs/deployment/kubernetes' },",  # noqa: E501
            "        ],",
            "      },",
            "    ],",
            "  ],",
            "",
        ]
        if redirects
        else []
    )
    return lines(
        "// @ts-check",
        "const {themes: prismThemes} = require('prism-react-renderer');",
        "",
        "/** @type {import('@docusaurus/types').Config} */",
        "const config = {",
        "  title: 'Lumen',",
        "  tagline: 'Feature flags you can self-host',",
        "  favicon: 'img/favicon.ico',",
        "  url: 'https://lumen-flags.dev',",
        "  baseUrl: '/',",
        "  organizationName: 'lumen-flags',",
        "  projectName: 'lumen-docs',",
        "  onBrokenLinks: 'throw',",
        "  onBrokenMarkdownLinks: 'warn',",
        "  i18n: { defaultLocale: 'en', locales: ['en'] },",
        "",
        "  presets: [",
        "    [",
        "      'classic',",
        "      /** @type {import('@docusaurus/preset-classic').Options} */",
        "      ({",
        "        docs: { sidebarPath: './sidebars.js', editUrl: 'https://github.com/lumen-flags/lumen-docs/tree/main/' },",  # noqa: E501
        "        blog: { showReadingTime: true },",
        "        theme: { customCss: './src/css/custom.css' },",
        "      }),",
        "    ],",
        "  ],",
        "",
        *plugins,
        "  themeConfig: {",
        "    image: 'img/social-card.png',",
        "    navbar: { title: 'Lumen', logo: { alt: 'Lumen', src: 'img/logo.svg' } },",
        "    prism: { theme: prismThemes.github, darkTheme: prismThemes.dracula, additionalLanguages: ['bash', 'yaml'] },",  # noqa: E501
        "  },",
        "};",
        "",
        "module.exports = config;",
    )


def _ds_package(redirects: bool) -> str:
    deps = {
        "@docusaurus/core": "3.2.1",
        "@docusaurus/preset-classic": "3.2.1",
        "@mdx-js/react": "^3.0.0",
        "clsx": "^2.0.0",
        "prism-react-renderer": "^2.3.0",
        "react": "^18.0.0",
        "react-dom": "^18.0.0",
    }
    if redirects:
        deps["@docusaurus/plugin-client-redirects"] = "3.2.1"
    data = {
        "name": "lumen-docs",
        "version": "0.0.0",
        "private": True,
        "scripts": {
            "docusaurus": "docusaurus",
            "start": "docusaurus start",
            "build": "docusaurus build",
            "serve": "docusaurus serve",
            "clear": "docusaurus clear",
        },
        "dependencies": dict(sorted(deps.items())),
        "devDependencies": {
            "@docusaurus/module-type-aliases": "3.2.1",
            "@docusaurus/types": "3.2.1",
        },
        "browserslist": {
            "production": [">0.5%", "not dead", "not op_mini all"],
            "development": ["last 3 chrome version"],
        },
        "engines": {"node": ">=18.0"},
    }
    return json.dumps(data, indent=2) + "\n"


def _ds_lock(redirects: bool) -> str:
    pkgs: dict[str, object] = {
        "": {"name": "lumen-docs", "version": "0.0.0"},
    }
    names = {
        "@docusaurus/core": "3.2.1",
        "@docusaurus/preset-classic": "3.2.1",
        "@docusaurus/plugin-content-docs": "3.2.1",
        "@docusaurus/plugin-content-blog": "3.2.1",
        "@docusaurus/theme-classic": "3.2.1",
        "@mdx-js/react": "3.0.1",
        "clsx": "2.1.0",
        "prism-react-renderer": "2.3.1",
        "react": "18.2.0",
        "react-dom": "18.2.0",
    }
    if redirects:
        names["@docusaurus/plugin-client-redirects"] = "3.2.1"
        names["eta"] = "2.2.0"
    for name, version in sorted(names.items()):
        tail = name.rsplit("/", 1)[-1]
        pkgs[f"node_modules/{name}"] = {
            "version": version,
            "resolved": f"https://registry.npmjs.org/{name}/-/{tail}-{version}.tgz",
            "integrity": "sha512-" + _hex(name + version, 64),
        }
    data = {
        "name": "lumen-docs",
        "version": "0.0.0",
        "lockfileVersion": 3,
        "requires": True,
        "packages": pkgs,
    }
    return json.dumps(data, indent=2) + "\n"


_DS_K8S_OLD = lines(
    "---",
    "sidebar_position: 1",
    "title: Deploying to Kubernetes",
    "---",
    "",
    "# Deploying to Kubernetes",
    "",
    "Lumen ships a Helm chart. Add the repository and install:",
    "",
    "```bash",
    "helm repo add lumen https://charts.lumen-flags.dev",
    "helm install lumen lumen/lumen --version 1.8.0 -f values.yaml",
    "```",
    "",
    "## values.yaml",
    "",
    "```yaml",
    "replicaCount: 2",
    "postgres:",
    "  host: postgres.default.svc",
    "  existingSecret: lumen-db",
    "ingress:",
    "  enabled: true",
    "  host: flags.example.com",
    "```",
    "",
    "See [configuration](../getting-started/configuration.md) for every setting.",
)

_DS_K8S_NEW = lines(
    "---",
    "title: Kubernetes",
    "description: Install Lumen on Kubernetes with the Helm chart (2.x).",
    "---",
    "",
    "# Kubernetes",
    "",
    "Lumen ships a Helm chart. Add the repository and install chart 2.x:",
    "",
    "```bash",
    "helm repo add lumen https://charts.lumen-flags.dev",
    "helm install lumen lumen/lumen --version 2.1.0 -f values.yaml",
    "```",
    "",
    ":::note Upgrading from chart 1.x",
    "`postgres.*` moved under `database.*`, and `ingress.host` became `ingress.hosts[]`.",
    ":::",
    "",
    "## values.yaml",
    "",
    "```yaml",
    "replicaCount: 2",
    "database:",
    "  host: postgres.default.svc",
    "  existingSecret: lumen-db",
    "ingress:",
    "  enabled: true",
    "  className: nginx",
    "  hosts:",
    "    - flags.example.com",
    "```",
    "",
    "See [configuration](../getting-started/configuration.md) for every setting.",
)

_DS_DOCKER = lines(
    "---",
    "sidebar_position: 2",
    "title: Deploying with Docker",
    "---",
    "",
    "# Deploying with Docker",
    "",
    '```yaml title="docker-compose.yml"',
    "version: '3.8'",
    "services:",
    "  lumen:",
    "    image: ghcr.io/lumen-flags/lumen:1.8",
    "    ports: ['8080:8080']",
    "    environment:",
    "      LUMEN_DATABASE_URL: postgres://lumen:lumen@db/lumen",
    "  db:",
    "    image: postgres:15",
    "```",
    "",
    "Run `docker-compose up -d`.",
)

_DS_CSS = lines(
    "/**",
    " * Any CSS included here will be global. The classic template",
    " * bundles Infima by default. Infima is a CSS framework designed to",
    " * work well for content-centric websites.",
    " */",
    "",
    ":root {",
    "  --ifm-color-primary: #6d28d9;",
    "  --ifm-color-primary-dark: #6224c3;",
    "  --ifm-color-primary-darker: #5d22b8;",
    "  --ifm-color-primary-darkest: #4c1c98;",
    "  --ifm-color-primary-light: #7a3ae0;",
    "  --ifm-color-primary-lighter: #8044e2;",
    "  --ifm-color-primary-lightest: #9463e7;",
    "  --ifm-code-font-size: 95%;",
    "}",
    "",
    "[data-theme='dark'] {",
    "  --ifm-color-primary: #a78bfa;",
    "}",
)


def _docusaurus_files() -> dict[str, str | bytes]:
    docs = {
        "intro": lines(
            "---",
            "sidebar_position: 1",
            "slug: /",
            "---",
            "",
            "# Lumen",
            "",
            "Lumen is a self-hosted feature-flag service. Start with the",
            "[quickstart](getting-started/quickstart.md), or go straight to",
            "[Kubernetes](guides/deploying-to-kubernetes.md) for production.",
        ),
        "getting-started/installation": lines(
            "# Installation", "", "`docker run ghcr.io/lumen-flags/lumen:1.8`"
        ),
        "getting-started/quickstart": lines(
            "# Quickstart",
            "",
            "1. Start Lumen locally with Docker.",
            "2. Create a flag in the dashboard.",
            "3. Read it from an SDK.",
            "",
            "When you are ready for production, see",
            "[Deploying to Kubernetes](../guides/deploying-to-kubernetes.md).",
        ),
        "getting-started/configuration": lines(
            "# Configuration", "", "Every setting is an environment variable; see the reference."
        ),
        "guides/deploying-to-kubernetes": _DS_K8S_OLD,
        "guides/deploying-with-docker": _DS_DOCKER,
        "guides/targeting-rules": lines(
            "# Targeting rules", "", "Rules match user attributes, top to bottom."
        ),
        "guides/percentage-rollouts": lines(
            "# Percentage rollouts", "", "Buckets are a hash of the flag key and user id."
        ),
        "guides/sdk-javascript": lines(
            "# JavaScript SDK", "", "```js", "const lumen = new Lumen({ url, key });", "```"
        ),
        "guides/sdk-python": lines(
            "# Python SDK", "", "```python", "client = lumen.Client(url, key)", "```"
        ),
        "guides/sdk-go": lines("# Go SDK", "", "```go", "c := lumen.New(url, key)", "```"),
        "reference/api": lines("# HTTP API", "", "`GET /api/v1/flags/{key}`"),
        "reference/cli": lines("# CLI", "", "`lumenctl flags list`"),
        "reference/environment-variables": lines(
            "# Environment variables",
            "",
            "| Name | Default |",
            "|---|---|",
            "| LUMEN_DATABASE_URL | — |",
        ),
        "reference/sdk-options": lines(
            "# SDK options", "", "`pollInterval`, `bootstrap`, `offline`."
        ),
        "faq": lines("# FAQ", "", "**Does Lumen phone home?** No."),
    }
    files: dict[str, str | bytes] = {f"docs/{k}.md": v for k, v in docs.items()}
    files.update(
        {
            # Trimmed from the template's long ignore list when the repo was set up.
            ".gitignore": lines("node_modules/", "/build", ".DS_Store"),
            "docusaurus.config.js": _ds_config(redirects=False),
            "sidebars.js": _ds_sidebars(deployment=False),
            "package.json": _ds_package(redirects=False),
            "package-lock.json": _ds_lock(redirects=False),
            "babel.config.js": lines(
                "module.exports = {",
                "  presets: [require.resolve('@docusaurus/core/lib/babel/preset')],",
                "};",
            ),
            "README.md": lines(
                "# lumen-docs", "", "`npm start` to preview; deploys from main to GitHub Pages."
            ),
            "blog/authors.yml": lines(
                "ines:",
                "  name: Inès Moreau",
                "  title: Maintainer",
                "  image_url: https://github.com/imoreau.png",
            ),
            "blog/2024-01-10-lumen-1-0.md": lines(
                "---", "slug: lumen-1-0", "authors: [ines]", "---", "", "Lumen 1.0 is out."
            ),
            "blog/2024-03-02-percentage-rollouts.md": lines(
                "---", "authors: [ines]", "---", "", "Stable bucketing."
            ),
            "blog/2024-04-18-helm-chart-2.md": lines(
                "---", "authors: [ines]", "---", "", "Chart 2.0 renames `postgres` to `database`."
            ),
            "src/css/custom.css": _DS_CSS,
            "src/pages/index.js": lines(
                "import Layout from '@theme/Layout';",
                "import HomepageFeatures from '@site/src/components/HomepageFeatures';",
                "export default function Home() {",
                '  return (<Layout title="Lumen"><HomepageFeatures /></Layout>);',
                "}",
            ),
            "src/pages/index.module.css": lines(
                ".heroBanner { padding: 4rem 0; text-align: center; }"
            ),
            "src/components/HomepageFeatures/index.js": lines(
                "import styles from './styles.module.css';",
                "const FeatureList = [{ title: 'Self-hosted' }, { title: 'Fast SDKs' }, { title: 'Audit log' }];",  # noqa: E501
                "export default function HomepageFeatures() { return <section className={styles.features} />; }",  # noqa: E501
            ),
            "src/components/HomepageFeatures/styles.module.css": lines(
                ".features { display: flex; padding: 2rem 0; }"
            ),
            "static/.nojekyll": "",
            "static/img/logo.svg": lines(
                '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#6d28d9"/></svg>'  # noqa: E501
            ),
            "static/img/favicon.ico": ICO,
            "static/img/social-card.png": _blob(PNG, "social-card", 200),
            "static/img/dashboard.png": _blob(PNG, "dashboard", 200),
            "static/img/undraw_flags.svg": lines(
                '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h10v10H0z"/></svg>'
            ),
            "static/img/undraw_server.svg": lines(
                '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h12v8H0z"/></svg>'
            ),
            "static/img/undraw_code.svg": lines(
                '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h8v12H0z"/></svg>'
            ),
            ".github/workflows/deploy.yml": lines(
                "name: Deploy to GitHub Pages",
                "on:",
                "  push:",
                "    branches: [main]",
                "jobs:",
                "  build:",
                "    runs-on: ubuntu-latest",
                "    steps:",
                "      - uses: actions/checkout@v4",
                "      - uses: actions/setup-node@v4",
                "        with: { node-version: 18, cache: npm }",
                "      - run: npm ci && npm run build",
                "      - uses: actions/upload-pages-artifact@v3",
                "        with: { path: build }",
            ),
        }
    )
    return files


def _ds_generated(doc_ids: list[str]) -> dict[str, str]:
    """What `docusaurus start` writes into .docusaurus/ (not ignored here)."""
    auto = "/*\n * AUTOGENERATED - DON'T EDIT\n * Your edits in this file will be overwritten in the next build!\n * Modify the docusaurus.config.js file at your site's root instead.\n */\n"  # noqa: E501
    routes = [
        "import React from 'react';",
        "import ComponentCreator from '@docusaurus/ComponentCreator';",
        "",
        "export default [",
        *(
            f"  {{ path: '/docs/{d}', component: ComponentCreator('/docs/{d}', '{_hex(d, 3)}'), exact: true }},"  # noqa: E501
            for d in doc_ids
        ),
        "];",
    ]
    out = {
        ".docusaurus/docusaurus.config.mjs": auto
        + 'export default {\n  "title": "Lumen",\n  "url": "https://lumen-flags.dev"\n};\n',
        ".docusaurus/routes.js": lines(*routes),
        ".docusaurus/registry.js": lines(
            "export default {",
            *(
                f"  '{_hex(d, 8)}': [() => import(/* webpackChunkName: '{_hex(d, 8)}' */ '@site/docs/{d}.md'), '@site/docs/{d}.md', require.resolveWeak('@site/docs/{d}.md')],"  # noqa: E501
                for d in doc_ids
            ),
            "};",
        ),
        ".docusaurus/routesChunkNames.json": json.dumps(
            {f"/docs/{d}-{_hex(d, 3)}": {"content": _hex(d, 8)} for d in doc_ids}, indent=2
        )
        + "\n",
        ".docusaurus/globalData.json": json.dumps(
            {
                "docusaurus-plugin-content-docs": {
                    "default": {
                        "path": "/docs",
                        "versions": [
                            {
                                "name": "current",
                                "docs": [{"id": d, "path": f"/docs/{d}"} for d in doc_ids],
                            }
                        ],
                    }
                }
            },
            indent=2,
        )
        + "\n",
        ".docusaurus/i18n.json": json.dumps(
            {"defaultLocale": "en", "locales": ["en"], "currentLocale": "en"}, indent=2
        )
        + "\n",
        ".docusaurus/site-metadata.json": json.dumps(
            {"docusaurusVersion": "3.2.1", "pluginVersions": {}}, indent=2
        )
        + "\n",
        ".docusaurus/client-modules.js": lines(
            "export default [",
            '  require("infima/dist/css/default/default.css"),',
            '  require("./../src/css/custom.css"),',
            "];",
        ),
        ".docusaurus/codeTranslations.json": "{}\n",
        ".docusaurus/client-manifest.json": json.dumps({"entrypoints": ["main"], "origins": {}})
        + "\n",
    }
    for d in doc_ids:
        if d.startswith(("deployment/", "guides/deploying")):
            key = "site-docs-" + d.replace("/", "-") + "-md-" + _hex(d, 3)
            out[f".docusaurus/docusaurus-plugin-content-docs/default/{key}.json"] = (
                json.dumps(
                    {"id": d, "title": d.rsplit("/", 1)[-1], "source": f"@site/docs/{d}.md"},
                    indent=2,
                )
                + "\n"
            )
    return out


def _docusaurus(s: Scene) -> None:
    s.commit("lumen-docs on Docusaurus 3", _docusaurus_files(), days_ago=95)
    s.commit(
        "blog: helm chart 2.0",
        {
            "blog/2024-04-18-helm-chart-2.md": _read(s, "blog/2024-04-18-helm-chart-2.md")
            + "\nUpgrade notes follow.\n"
        },
        days_ago=12,
    )
    old, new = "docs/guides/deploying-to-kubernetes.md", "docs/deployment/kubernetes.md"
    s.intent(
        "Move the Kubernetes guide into a new 'Deployment' sidebar category as "
        "docs/deployment/kubernetes.md, update its Helm values for chart 2.x, fix the links "
        "to the old path, and redirect the old URL",
        {old: "the page to move", "sidebars.js": "the new category"},
        hours_ago=1,
    )
    # `git mv`, then the chart 2.x edits.
    s.agent(rename={old: new})
    _staged(s, old, new)
    s.agent(
        {
            new: _DS_K8S_NEW,
            # "Also modernised" the Docker page: Compose v2 syntax, no version key, new image
            # tag — a neighbour the move never needed.
            "docs/guides/deploying-with-docker.md": _DS_DOCKER.replace("version: '3.8'\n", "")
            .replace("lumen:1.8", "lumen:2")
            .replace("Run `docker-compose up -d`.", "Run `docker compose up -d --wait`."),
        }
    )
    s.checkpoint("kubernetes page moved")
    doc_ids = [
        k.removeprefix("docs/").removesuffix(".md")
        for k in _docusaurus_files()
        if k.startswith("docs/") and k != old
    ] + ["deployment/kubernetes"]
    generated = _ds_generated(sorted(doc_ids))
    s.agent(
        {
            "sidebars.js": _ds_sidebars(deployment=True),
            "docusaurus.config.js": _ds_config(redirects=True),
            "package.json": _ds_package(redirects=True),
            "package-lock.json": _ds_lock(redirects=True),
            "docs/getting-started/quickstart.md": _read(
                s, "docs/getting-started/quickstart.md"
            ).replace(
                "[Deploying to Kubernetes](../guides/deploying-to-kubernetes.md)",
                "[Kubernetes](../deployment/kubernetes.md)",
            ),
            "docs/intro.md": _read(s, "docs/intro.md").replace(
                "(guides/deploying-to-kubernetes.md)", "(deployment/kubernetes.md)"
            ),
            # "Better contrast" for the brand colour: nobody asked.
            "src/css/custom.css": _DS_CSS.replace("#6d28d9", "#5b21b6").replace(
                "#a78bfa", "#c4b5fd"
            ),
            # `npm start` to check the redirect and the links.
            **generated,
        }
    )
    s.fine(old, new)  # the move, with the chart 2.x edits, as asked
    s.fine(
        "sidebars.js",
        "docusaurus.config.js",  # the redirect plugin for the old URL
        "package.json",  # the redirect plugin
        "package-lock.json",  # written by npm, moved for the plugin the intent needs
        "docs/getting-started/quickstart.md",
        "docs/intro.md",
    )
    s.drift("docs/guides/deploying-with-docker.md", "src/css/custom.css")
    s.excluded(*generated)
    s.safe_commit()
    s.note = (
        "git mv with edits in scope; the only checkpoint came after the Docker-page drift, so "
        "the commit is the safe point; .docusaurus/ (not ignored here) excluded"
    )


# -- 5. Godot 4 game: a sound with a space in its name, .import sidecars, .uid files ---------------

#: Scripts (res:// paths without .gd) of the game and its tests.
_GD_SCRIPTS = [
    "autoload/game_state",
    "autoload/audio_bus",
    "scenes/main",
    "scenes/player/player",
    "scenes/enemies/bat",
    "scenes/enemies/slime",
    "scenes/props/door",
    "scenes/props/chest",
    "scenes/props/lantern",
    "scenes/props/key",
    "scenes/ui/hud",
    "scenes/ui/pause_menu",
    "scenes/levels/level",
    "tests/test_player",
    "tests/test_chest",
]

_GD_SPRITES = ["player", "bat", "slime", "door", "chest", "lantern", "key", "tileset", "hud_icons"]
_GD_SOUNDS = {
    "footstep.wav": WAV,
    "pickup.wav": WAV[:40] + b"pk",
    "bat_screech.wav": WAV[:40] + b"bs",
    "chest open.wav": WAV[:40] + b"co",
}


def _gd_uid(seed: str) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    digest = hashlib.sha256(seed.encode()).digest()
    return "uid://" + "".join(alphabet[b % 36] for b in digest[:13])


def _gd_import(res: str, kind: str) -> str:
    """The .import sidecar the Godot editor writes next to each asset."""
    name = res.rsplit("/", 1)[-1]
    md5 = _hex(res, 32)
    if kind == "wav":
        head = ['importer="wav"', 'type="AudioStreamWAV"']
        ext = "sample"
        params = [
            "force/8_bit=false",
            "force/mono=false",
            "force/max_rate=false",
            "force/max_rate_hz=44100",
            "edit/trim=false",
            "edit/normalize=false",
            "edit/loop_mode=0",
            "edit/loop_begin=0",
            "edit/loop_end=-1",
            "compress/mode=2",
        ]
    elif kind == "ogg":
        head = ['importer="oggvorbisstr"', 'type="AudioStreamOggVorbis"']
        ext = "oggvorbisstr"
        params = ["loop=true", "loop_offset=0", "bpm=0", "beat_count=0", "bar_beats=4"]
    elif kind == "ttf":
        head = ['importer="font_data_dynamic"', 'type="FontFile"']
        ext = "fontdata"
        params = [
            "Rendering=null",
            "antialiasing=0",
            "generate_mipmaps=false",
            "multichannel_signed_distance_field=false",
        ]
    else:
        head = ['importer="texture"', 'type="CompressedTexture2D"']
        ext = "ctex"
        params = [
            "compress/mode=0",
            "compress/high_quality=false",
            "compress/lossy_quality=0.7",
            "mipmaps/generate=false",
            "process/fix_alpha_border=true",
            "process/premult_alpha=false",
            "detect_3d/compress_to=1",
        ]
    dest = f"res://.godot/imported/{name}-{md5}.{ext}"
    return lines(
        "[remap]",
        "",
        *head,
        f'uid="{_gd_uid(res)}"',
        f'path="{dest}"',
        "",
        "[deps]",
        "",
        f'source_file="{res}"',
        f'dest_files=["{dest}"]',
        "",
        "[params]",
        "",
        *params,
    )


def _gd_tscn(name: str, script: str, extra: list[str] | None = None) -> str:
    cls = "".join(p.capitalize() for p in name.split("_"))
    return lines(
        f'[gd_scene load_steps=3 format=3 uid="{_gd_uid(script + ".tscn")}"]',
        "",
        f'[ext_resource type="Script" uid="{_gd_uid(script + ".gd.uid")}" path="res://{script}.gd" id="1_{_hex(name, 5)}"]',  # noqa: E501
        "",
        f'[node name="{cls}" type="Area2D"]',
        f'script = ExtResource("1_{_hex(name, 5)}")',
        *(extra or []),
    )


_GD_PROJECT = lines(
    "; Engine configuration file.",
    "; It's best edited using the editor UI and not directly,",
    "; since the parameters that go here are not all obvious.",
    ";",
    "; Format:",
    ";   [section] ; section goes between []",
    ";   param=value ; assign values to parameters",
    "",
    "config_version=5",
    "",
    "[application]",
    "",
    'config/name="Lanternfall"',
    'run/main_scene="res://scenes/main.tscn"',
    'config/features=PackedStringArray("4.4", "GL Compatibility")',
    'config/icon="res://icon.svg"',
    "",
    "[autoload]",
    "",
    'GameState="*res://autoload/game_state.gd"',
    'AudioBus="*res://autoload/audio_bus.gd"',
    "",
    "[display]",
    "",
    "window/size/viewport_width=480",
    "window/size/viewport_height=270",
    'window/stretch/mode="viewport"',
    'window/stretch/scale_mode="integer"',
    "",
    "[editor_plugins]",
    "",
    'enabled=PackedStringArray("res://addons/gut/plugin.cfg")',
    "",
    "[input]",
    "",
    'interact={\n"deadzone": 0.5,\n"events": [Object(InputEventKey,"resource_local_to_scene":false,"keycode":0,"physical_keycode":69,"unicode":101)]\n}',  # noqa: E501
    "",
    "[rendering]",
    "",
    "textures/canvas_textures/default_texture_filter=0",
    'renderer/rendering_method="gl_compatibility"',
    'renderer/rendering_method.mobile="gl_compatibility"',
)

_GD_DOOR_OLD = lines(
    "extends StaticBody2D",
    "## A door. Blocks the way until opened.",
    "",
    "@export var needs_key := true",
    "var is_open := false",
    "",
    "@onready var sprite: AnimatedSprite2D = $Sprite",
    "@onready var shape: CollisionShape2D = $Shape",
    "",
    "",
    "func open() -> void:",
    "\tis_open = true",
    '\tsprite.play("open")',
    '\tshape.set_deferred("disabled", true)',
)

_GD_DOOR_NEW = lines(
    "extends StaticBody2D",
    "## A door. Opens with the interact action when the player carries a key.",
    "",
    "signal opened",
    "",
    "@export var needs_key := true",
    "var is_open := false",
    "var _player_near := false",
    "",
    "@onready var sprite: AnimatedSprite2D = $Sprite",
    "@onready var shape: CollisionShape2D = $Shape",
    "@onready var sfx: AudioStreamPlayer2D = $OpenSound",
    "",
    "",
    "func _unhandled_input(event: InputEvent) -> void:",
    '\tif is_open or not _player_near or not event.is_action_pressed("interact"):',
    "\t\treturn",
    "\tif needs_key and not GameState.has_key():",
    '\t\tGameState.hint.emit("Locked")',
    "\t\treturn",
    "\tif needs_key:",
    "\t\tGameState.use_key()",
    "\topen()",
    "",
    "",
    "func open() -> void:",
    "\tis_open = true",
    '\tsprite.play("open")',
    "\tsfx.play()",
    '\tshape.set_deferred("disabled", true)',
    "\topened.emit()",
    "",
    "",
    "func _on_reach_body_entered(body: Node2D) -> void:",
    '\t_player_near = body.is_in_group("player")',
    "",
    "",
    "func _on_reach_body_exited(_body: Node2D) -> void:",
    "\t_player_near = false",
)

_GD_PLAYER = lines(
    "extends CharacterBody2D",
    "",
    "const SPEED := 90.0",
    "",
    "@onready var anim: AnimatedSprite2D = $Sprite",
    "",
    "",
    "func _physics_process(_delta: float) -> void:",
    '\tvar dir := Vector2(Input.get_axis("ui_left", "ui_right"), Input.get_axis("ui_up", "ui_down"))',  # noqa: E501
    "\tvelocity = dir * SPEED",
    '\tanim.play("walk" if dir else "idle")',
    "\tmove_and_slide()",
)

_GD_CHEST = lines(
    "extends Area2D",
    "",
    "@export var loot: PackedScene",
    "var opened := false",
    "",
    "",
    "func _on_body_entered(body: Node2D) -> void:",
    '\tif opened or not body.is_in_group("player"):',
    "\t\treturn",
    "\topened = true",
    '\t$Sprite.play("open")',
    '\tAudioBus.play("chest open")',
    "\tif loot:",
    "\t\tadd_sibling.call_deferred(loot.instantiate())",
)

_GD_HUD_OLD = lines(
    "extends CanvasLayer",
    "",
    "@onready var hearts: HBoxContainer = $Hearts",
    "@onready var keys: Label = $Keys",
    "",
    "",
    "func _ready() -> void:",
    "\tGameState.keys_changed.connect(func(n: int) -> void: keys.text = str(n))",
)

_GD_HUD_NEW = lines(
    "extends CanvasLayer",
    "",
    "@onready var hearts: HBoxContainer = $Hearts",
    "@onready var keys: Label = $Keys",
    "@onready var hint: Label = $Hint",
    "",
    "",
    "func _ready() -> void:",
    "\tGameState.keys_changed.connect(func(n: int) -> void: keys.text = str(n))",
    "\tGameState.hint.connect(show_hint)",
    "",
    "",
    "func show_hint(text: String) -> void:",
    "\thint.text = text",
    "\thint.show()",
    "\tawait get_tree().create_timer(1.5).timeout",
    "\thint.hide()",
)

_GD_STATE_OLD = lines(
    "extends Node",
    "",
    "signal keys_changed(count: int)",
    "",
    "var keys := 0:",
    "\tset(value):",
    "\t\tkeys = value",
    "\t\tkeys_changed.emit(keys)",
    "",
    "",
    "func add_key() -> void:",
    "\tkeys += 1",
)


def _gd_godot_cache(assets: list[str], with_door_sound: bool) -> dict[str, str | bytes]:
    """The editor's .godot/ folder (imports and caches), never ignored in this repository."""
    out: dict[str, str | bytes] = {
        ".godot/uid_cache.bin": _blob(b"\x00\x00\x00\x00", "uid" + str(with_door_sound), 120),
        ".godot/global_script_class_cache.cfg": lines("list=Array[Dictionary]([])"),
        ".godot/editor/project_metadata.cfg": lines(
            "[editor_metadata]", "", 'executable_path="/usr/local/bin/godot"'
        ),
        ".godot/editor/filesystem_cache10": lines(
            _hex("fs" + str(with_door_sound), 32), "::res://::1718101234"
        ),
        ".godot/editor/filesystem_update4": "",
    }
    for res in assets:
        name = res.rsplit("/", 1)[-1]
        ext = {"wav": "sample", "ogg": "oggvorbisstr", "ttf": "fontdata"}.get(
            name.rsplit(".", 1)[-1], "ctex"
        )
        out[f".godot/imported/{name}-{_hex(res, 32)}.{ext}"] = _blob(
            b"GST2" if ext == "ctex" else b"RSRC", res
        )
        if ext == "ctex":
            out[f".godot/imported/{name}-{_hex(res, 32)}.md5"] = lines(
                f'source_md5="{_hex(res + "s", 32)}"', f'dest_md5="{_hex(res + "d", 32)}"'
            )
    return out


def _godot_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # Still the Godot 3 ignore file: .import/ is gone in Godot 4, .godot/ never added.
        ".gitignore": lines(
            "# Godot-specific ignores",
            ".import/",
            "export.cfg",
            "export_presets.cfg",
            "",
            "# Mono-specific ignores",
            ".mono/",
            "data_*/",
        ),
        "project.godot": _GD_PROJECT,
        "icon.svg": lines(
            '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128"><rect width="128" height="128" fill="#363d52"/></svg>'  # noqa: E501
        ),
        "icon.svg.import": _gd_import("res://icon.svg", "png"),
        "README.md": lines(
            "# Lanternfall",
            "",
            "A small top-down dungeon game. Godot 4.4.",
            "",
            "Tests: `godot --headless -s addons/gut/gut_cmdln.gd`.",
        ),
        ".gutconfig.json": json.dumps(
            {"dirs": ["res://tests/"], "include_subdirs": True, "log_level": 1}, indent=2
        )
        + "\n",
        "addons/gut/plugin.cfg": lines(
            "[plugin]",
            "",
            'name="Gut"',
            'description="Unit Testing tool for Godot."',
            'author="Butch Wesley"',
            'version="9.3.0"',
            'script="gut_plugin.gd"',
        ),
        "addons/gut/gut_plugin.gd": lines("@tool", "extends EditorPlugin"),
        "addons/gut/gut.gd": lines(
            "extends 'res://addons/gut/gut_to_move.gd'", "# Vendored from bitwes/Gut 9.3.0"
        ),
        "addons/gut/gut_cmdln.gd": lines("extends SceneTree", "# Vendored from bitwes/Gut 9.3.0"),
        "addons/gut/test.gd": lines("class_name GutTest", "extends Node"),
        "assets/music/theme.ogg": OGG,
        "assets/music/theme.ogg.import": _gd_import("res://assets/music/theme.ogg", "ogg"),
        "assets/fonts/m5x7.ttf": TTF,
        "assets/fonts/m5x7.ttf.import": _gd_import("res://assets/fonts/m5x7.ttf", "ttf"),
        "autoload/game_state.gd": _GD_STATE_OLD,
        "autoload/audio_bus.gd": lines(
            "extends Node",
            "",
            "func play(sound: String) -> void:",
            "\tvar p := AudioStreamPlayer.new()",
            '\tp.stream = load("res://assets/audio/%s.wav" % sound)',
            "\tadd_child(p)",
            "\tp.play()",
            "\tp.finished.connect(p.queue_free)",
        ),
        "scenes/main.gd": lines(
            "extends Node2D", "", "func _ready() -> void:", "\t$Level.load_level(1)"
        ),
        "scenes/player/player.gd": _GD_PLAYER,
        "scenes/enemies/bat.gd": lines("extends CharacterBody2D", "", "@export var speed := 60.0"),
        "scenes/enemies/slime.gd": lines(
            "extends CharacterBody2D", "", "@export var hop_height := 8.0"
        ),
        "scenes/props/door.gd": _GD_DOOR_OLD,
        "scenes/props/chest.gd": _GD_CHEST,
        "scenes/props/lantern.gd": lines(
            "extends PointLight2D",
            "",
            "func _process(_d: float) -> void:",
            "\tenergy = 0.9 + randf() * 0.1",
        ),
        "scenes/props/key.gd": lines(
            "extends Area2D",
            "",
            "func _on_body_entered(_b: Node2D) -> void:",
            "\tGameState.add_key()",
            "\tqueue_free()",
        ),
        "scenes/ui/hud.gd": _GD_HUD_OLD,
        "scenes/ui/pause_menu.gd": lines(
            "extends Control",
            "",
            "func _unhandled_input(e: InputEvent) -> void:",
            '\tif e.is_action_pressed("ui_cancel"):',
            "\t\tget_tree().paused = not get_tree().paused",
        ),
        "scenes/levels/level.gd": lines(
            "extends Node2D",
            "",
            "func load_level(n: int) -> void:",
            '\tadd_child(load("res://scenes/levels/level_%02d.tscn" % n).instantiate())',
        ),
        "tests/test_player.gd": lines(
            "extends GutTest",
            "",
            "func test_speed() -> void:",
            '\tvar p = load("res://scenes/player/player.tscn").instantiate()',
            "\tassert_eq(p.SPEED, 90.0)",
            "\tp.free()",
        ),
        "tests/test_chest.gd": lines(
            "extends GutTest", "", "func test_opens_once() -> void:", "\tpass"
        ),
    }
    for script in _GD_SCRIPTS:
        files[f"{script}.gd.uid"] = _gd_uid(script + ".gd.uid") + "\n"
    for scene in (
        "main",
        "player/player",
        "enemies/bat",
        "enemies/slime",
        "props/chest",
        "props/lantern",
        "props/key",
        "ui/pause_menu",
    ):
        script = f"scenes/{scene}"
        files[f"{script}.tscn"] = _gd_tscn(scene.rsplit("/", 1)[-1], script)
    files["scenes/props/door.tscn"] = _gd_tscn(
        "door",
        "scenes/props/door",
        [
            "",
            '[node name="Sprite" type="AnimatedSprite2D" parent="."]',
            "",
            '[node name="Shape" type="CollisionShape2D" parent="."]',
        ],
    )
    files["scenes/ui/hud.tscn"] = _gd_tscn(
        "hud",
        "scenes/ui/hud",
        [
            "",
            '[node name="Hearts" type="HBoxContainer" parent="."]',
            "",
            '[node name="Keys" type="Label" parent="."]',
        ],
    )
    for n in (1, 2):
        files[f"scenes/levels/level_{n:02d}.tscn"] = _gd_tscn(
            f"level_{n:02d}", "scenes/levels/level"
        )
    for sprite in _GD_SPRITES:
        res = f"res://assets/sprites/{sprite}.png"
        files[f"assets/sprites/{sprite}.png"] = _blob(PNG, sprite, 140)
        files[f"assets/sprites/{sprite}.png.import"] = _gd_import(res, "png")
    for name, data in _GD_SOUNDS.items():
        files[f"assets/audio/{name}"] = data
        files[f"assets/audio/{name}.import"] = _gd_import(f"res://assets/audio/{name}", "wav")
    return files


def _godot(s: Scene) -> None:
    s.commit("Lanternfall: port to Godot 4", _godot_files(), days_ago=50)
    s.commit(
        "bat: faster",
        {
            "scenes/enemies/bat.gd": lines(
                "extends CharacterBody2D", "", "@export var speed := 72.0"
            )
        },
        days_ago=6,
    )
    s.intent(
        "Doors: open with the interact action when the player has a key (using it up), play "
        "the new 'door open' sound, and show a 'Locked' hint on the HUD otherwise",
        {
            "scenes/props/door.gd": "the door logic",
            "scenes/props/door.tscn": "needs the sound player and reach area",
        },
        hours_ago=3,
    )
    s.checkpoint("before doors")
    door_sfx = "assets/audio/door open.wav"
    assets = (
        [f"res://assets/sprites/{n}.png" for n in _GD_SPRITES]
        + [f"res://assets/audio/{n}" for n in _GD_SOUNDS]
        + ["res://assets/music/theme.ogg", "res://assets/fonts/m5x7.ttf", "res://icon.svg"]
    )
    first_cache = _gd_godot_cache([*assets, f"res://{door_sfx}"], with_door_sound=True)
    s.agent(
        {
            "scenes/props/door.gd": _GD_DOOR_NEW,
            "scenes/props/door.tscn": _gd_tscn(
                "door",
                "scenes/props/door",
                [
                    "",
                    '[node name="Sprite" type="AnimatedSprite2D" parent="."]',
                    "",
                    '[node name="Shape" type="CollisionShape2D" parent="."]',
                    "",
                    '[node name="OpenSound" type="AudioStreamPlayer2D" parent="."]',
                    'stream = ExtResource("2_dooro")',
                    "",
                    '[node name="Reach" type="Area2D" parent="."]',
                    "",
                    '[connection signal="body_entered" from="Reach" to="." method="_on_reach_body_entered"]',  # noqa: E501
                    '[connection signal="body_exited" from="Reach" to="." method="_on_reach_body_exited"]',  # noqa: E501
                ],
            ),
            door_sfx: _blob(WAV[:44], "door open", 300),
            # The editor's import of the new sound: the sidecar and the imported sample.
            f"{door_sfx}.import": _gd_import(f"res://{door_sfx}", "wav"),
            "autoload/game_state.gd": _GD_STATE_OLD.replace(
                "signal keys_changed(count: int)\n",
                "signal keys_changed(count: int)\nsignal hint(text: String)\n",
            )
            + lines(
                "",
                "",
                "func has_key() -> bool:",
                "\treturn keys > 0",
                "",
                "",
                "func use_key() -> void:",
                "\tkeys -= 1",
            ),
            "scenes/ui/hud.gd": _GD_HUD_NEW,
            "scenes/ui/hud.tscn": _read(s, "scenes/ui/hud.tscn")
            + lines(
                "",
                '[node name="Hint" type="Label" parent="."]',
                "visible = false",
                "horizontal_alignment = 1",
            ),
            # First editor run on this clone: .godot/ appears, unignored.
            **first_cache,
        }
    )
    mid = s.checkpoint("door opens with a key")
    s.agent(
        {
            "tests/test_door.gd": lines(
                "extends GutTest",
                "",
                "func test_locked_without_key() -> void:",
                '\tvar door = load("res://scenes/props/door.tscn").instantiate()',
                "\tadd_child_autofree(door)",
                "\tGameState.keys = 0",
                "\tdoor._player_near = true",
                '\tvar ev := InputEventAction.new(); ev.action = "interact"; ev.pressed = true',
                "\tdoor._unhandled_input(ev)",
                "\tassert_false(door.is_open)",
                "",
                "func test_opens_and_uses_key() -> void:",
                '\tvar door = load("res://scenes/props/door.tscn").instantiate()',
                "\tadd_child_autofree(door)",
                "\tGameState.keys = 1",
                "\tdoor._player_near = true",
                '\tvar ev := InputEventAction.new(); ev.action = "interact"; ev.pressed = true',
                "\tdoor._unhandled_input(ev)",
                "\tassert_true(door.is_open)",
                "\tassert_eq(GameState.keys, 0)",
            ),
            "tests/test_door.gd.uid": _gd_uid("tests/test_door.gd.uid") + "\n",
            # "Fixed" diagonal speed while testing the door: a gameplay change nobody asked for.
            "scenes/player/player.gd": _GD_PLAYER.replace(
                '\tvar dir := Vector2(Input.get_axis("ui_left", "ui_right"), Input.get_axis("ui_up", "ui_down"))\n',  # noqa: E501
                '\tvar dir := Input.get_vector("ui_left", "ui_right", "ui_up", "ui_down")\n',
            ),
            # Chest "made consistent" with the door: now needs the interact key too.
            "scenes/props/chest.gd": _GD_CHEST.replace(
                "func _on_body_entered(body: Node2D) -> void:\n"
                '\tif opened or not body.is_in_group("player"):\n',
                "var _near := false\n\n\n"
                "func _on_body_entered(body: Node2D) -> void:\n"
                '\t_near = body.is_in_group("player")\n\n\n'
                "func _unhandled_input(event: InputEvent) -> void:\n"
                '\tif opened or not _near or not event.is_action_pressed("interact"):\n',
            ),
            # Switched the renderer "for the light effects".
            "project.godot": _GD_PROJECT.replace(
                'config/features=PackedStringArray("4.4", "GL Compatibility")',
                'config/features=PackedStringArray("4.4", "Forward Plus")',
            ).replace(
                'renderer/rendering_method="gl_compatibility"\n'
                'renderer/rendering_method.mobile="gl_compatibility"\n',
                "",
            ),
            ".godot/uid_cache.bin": _blob(b"\x00\x00\x00\x00", "uid-after-tests", 130),
            ".godot/global_script_class_cache.cfg": lines(
                'list=Array[Dictionary]([{"base": &"Node", "class": &"GutTest", "icon": "", "language": &"GDScript", "path": "res://addons/gut/test.gd"}])'  # noqa: E501
            ),
        }
    )
    s.checkpoint("agent done")
    s.fine(
        "scenes/props/door.gd",
        "scenes/props/door.tscn",
        door_sfx,  # the sound the intent names: a binary asset with a space in its name
        "autoload/game_state.gd",  # has_key/use_key and the hint signal the door needs
        "scenes/ui/hud.gd",
        "scenes/ui/hud.tscn",
        "tests/test_door.gd",
    )
    s.drift("scenes/player/player.gd", "scenes/props/chest.gd", "project.godot")
    # The .import sidecar and the .uid file are committed by Godot convention, but the
    # editor writes every byte of them: machine-made, like .godot/ itself.
    s.excluded(f"{door_sfx}.import", "tests/test_door.gd.uid", *first_cache)
    s.safe_checkpoint(mid)
    s.note = (
        "checkpoints before, mid (clean) and after the drift: mid is safe; a spaced-name WAV; "
        "the .import sidecar, a new .uid and the unignored .godot/ excluded"
    )


# -- 6. Nextflow pipeline, empty memory: work/, .nextflow/ and results/ flood ----------------------

_NF_SAMPLES = ["WT_REP1", "WT_REP2", "KO_REP1", "KO_REP2"]


def _nf_module(name: str, container: str, script: list[str], outputs: list[str]) -> str:
    upper = name.upper()
    return lines(
        f"process {upper} {{",
        '    tag "$meta.id"',
        "    label 'process_medium'",
        "",
        '    conda "${moduleDir}/environment.yml"',
        f"    container '{container}'",
        "",
        "    input:",
        "    tuple val(meta), path(reads)",
        "",
        "    output:",
        *(f"    {o}" for o in outputs),
        '    path "versions.yml", emit: versions',
        "",
        "    script:",
        "    def args = task.ext.args ?: ''",
        '    """',
        *(f"    {line}" for line in script),
        '    """',
        "}",
    )


def _nf_meta(name: str, tool: str, homepage: str) -> str:
    return lines(
        f"name: {name}",
        f"description: {tool}",
        "keywords: [rnaseq, fastq]",
        "tools:",
        f"  - {name}:",
        f"      homepage: {homepage}",
        "      licence: [MIT]",
        "input:",
        "  - meta: { type: map }",
        "  - reads: { type: file, pattern: '*.fastq.gz' }",
    )


_NF_WORKFLOW_OLD = lines(
    "include { INPUT_CHECK    } from '../subworkflows/local/input_check'",
    "include { FASTQC         } from '../modules/local/fastqc/main'",
    "include { TRIMGALORE     } from '../modules/local/trimgalore/main'",
    "include { SALMON_INDEX   } from '../modules/local/salmon_index/main'",
    "include { SALMON_QUANT   } from '../modules/local/salmon_quant/main'",
    "include { MERGE_COUNTS   } from '../modules/local/merge_counts/main'",
    "include { MULTIQC        } from '../modules/local/multiqc/main'",
    "",
    "workflow RNASEQ_LITE {",
    "    ch_versions = Channel.empty()",
    "    INPUT_CHECK ( file(params.input) )",
    "    FASTQC ( INPUT_CHECK.out.reads )",
    "    TRIMGALORE ( INPUT_CHECK.out.reads )",
    "    SALMON_INDEX ( file(params.transcripts) )",
    "    SALMON_QUANT ( TRIMGALORE.out.reads, SALMON_INDEX.out.index )",
    "    MERGE_COUNTS ( SALMON_QUANT.out.quant.collect { it[1] }, file(params.tx2gene) )",
    "    MULTIQC ( FASTQC.out.zip.mix(TRIMGALORE.out.log, SALMON_QUANT.out.quant).collect { it[1] } )",  # noqa: E501
    "    ch_versions = ch_versions.mix(FASTQC.out.versions, TRIMGALORE.out.versions)",
    "}",
)

_NF_WORKFLOW_NEW = lines(
    "include { INPUT_CHECK    } from '../subworkflows/local/input_check'",
    "include { FASTQC         } from '../modules/local/fastqc/main'",
    "include { FASTP          } from '../modules/local/fastp/main'",
    "include { SALMON_INDEX   } from '../modules/local/salmon_index/main'",
    "include { SALMON_QUANT   } from '../modules/local/salmon_quant/main'",
    "include { MERGE_COUNTS   } from '../modules/local/merge_counts/main'",
    "include { MULTIQC        } from '../modules/local/multiqc/main'",
    "",
    "workflow RNASEQ_LITE {",
    "    ch_versions = Channel.empty()",
    "    INPUT_CHECK ( file(params.input) )",
    "    FASTQC ( INPUT_CHECK.out.reads )",
    "    FASTP ( INPUT_CHECK.out.reads, params.save_trimmed )",
    "    SALMON_INDEX ( file(params.transcripts) )",
    "    SALMON_QUANT ( FASTP.out.reads, SALMON_INDEX.out.index )",
    "    MERGE_COUNTS ( SALMON_QUANT.out.quant.collect { it[1] }, file(params.tx2gene) )",
    "    MULTIQC ( FASTQC.out.zip.mix(FASTP.out.json, SALMON_QUANT.out.quant).collect { it[1] } )",
    "    ch_versions = ch_versions.mix(FASTQC.out.versions, FASTP.out.versions)",
    "}",
)

_NF_CONFIG = lines(
    "manifest {",
    "    name            = 'lab/rnaseq-lite'",
    "    description     = 'Small RNA-seq quantification: FastQC, trimming, Salmon, MultiQC'",
    "    nextflowVersion = '!>=23.10.0'",
    "    version         = '0.6.0'",
    "}",
    "",
    "params {",
    "    input          = null",
    "    transcripts    = null",
    "    tx2gene        = null",
    "    outdir         = 'results'",
    "    trim_quality   = 20",
    "    trim_min_len   = 25",
    "    max_cpus       = 8",
    "    max_memory     = '32.GB'",
    "}",
    "",
    "includeConfig 'conf/base.config'",
    "includeConfig 'conf/modules.config'",
    "",
    "profiles {",
    "    docker { docker.enabled = true }",
    "    singularity { singularity.enabled = true; singularity.autoMounts = true }",
    "    conda { conda.enabled = true }",
    "    slurm { includeConfig 'conf/slurm.config' }",
    "    test { includeConfig 'conf/test.config' }",
    "}",
    "",
    "timeline { enabled = true; file = \"${params.outdir}/pipeline_info/execution_timeline_${new Date().format('yyyy-MM-dd_HH-mm-ss')}.html\" }",  # noqa: E501
    "report   { enabled = true; file = \"${params.outdir}/pipeline_info/execution_report_${new Date().format('yyyy-MM-dd_HH-mm-ss')}.html\" }",  # noqa: E501
    "trace    { enabled = true; file = \"${params.outdir}/pipeline_info/execution_trace_${new Date().format('yyyy-MM-dd_HH-mm-ss')}.txt\" }",  # noqa: E501
)

_NF_MODULES_CONFIG = lines(
    "process {",
    "    publishDir = [",
    "        path: { \"${params.outdir}/${task.process.tokenize(':')[-1].tokenize('_')[0].toLowerCase()}\" },",  # noqa: E501
    "        mode: 'copy',",
    "        saveAs: { filename -> filename.equals('versions.yml') ? null : filename }",
    "    ]",
    "",
    "    withName: 'TRIMGALORE' {",
    '        ext.args = { "--quality ${params.trim_quality} --length ${params.trim_min_len}" }',
    "    }",
    "    withName: 'SALMON_QUANT' {",
    "        ext.args = '--validateMappings --gcBias'",
    "    }",
    "}",
)

_NF_CI = lines(
    "name: nf-test",
    "on: [push, pull_request]",
    "jobs:",
    "  test:",
    "    runs-on: ubuntu-latest",
    "    strategy:",
    "      matrix:",
    "        NXF_VER: ['23.10.1', 'latest-everything']",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: nf-core/setup-nextflow@v1",
    "        with:",
    "          version: ${{ matrix.NXF_VER }}",
    "      - run: nextflow run . -profile test,docker --outdir ./results",
)


def _nf_run(tag: str) -> dict[str, str | bytes]:
    """What `nextflow run . -profile test,docker` leaves in the project (nothing ignored)."""
    stamp = "2024-06-11_10-15-02"
    session = "3c1f0e2a-9b7d-4c11-a5e2-6f0b8d4e7a19"
    out: dict[str, str | bytes] = {
        ".nextflow.log": lines(
            "Jun-11 10:15:01.882 [main] DEBUG nextflow.cli.Launcher - $> nextflow run . -profile test,docker",  # noqa: E501
            "Jun-11 10:15:02.104 [main] INFO  nextflow.cli.CmdRun - N E X T F L O W  ~  version 24.04.2",  # noqa: E501
            f"Jun-11 10:15:02.311 [main] INFO  nextflow.cli.CmdRun - Launching `./main.nf` [pensive_curie] DSL2 - revision: {_hex(tag, 10)}",  # noqa: E501
            "Jun-11 10:16:14.020 [main] DEBUG nextflow.script.ScriptRunner - > Execution complete -- Goodbye",  # noqa: E501
        ),
        ".nextflow.log.1": lines(
            "Jun-11 10:09:40.517 [main] DEBUG nextflow.cli.Launcher - $> nextflow run . -profile test,docker",  # noqa: E501
            "Jun-11 10:10:03.877 [main] ERROR nextflow.cli.Launcher - No such variable: save_trimmed",  # noqa: E501
        ),
        ".nextflow/history": lines(
            f"2024-06-11 10:09:40\t23.2s\tfurious_lamport\tERR\t{_hex('h1', 32)}\t{session[:-1]}0\tnextflow run . -profile test,docker",  # noqa: E501
            f"2024-06-11 10:15:02\t1m 12s\tpensive_curie\tOK\t{_hex('h2', 32)}\t{session}\tnextflow run . -profile test,docker",  # noqa: E501
        ),
        f".nextflow/cache/{session}/db/000003.log": _blob(b"\x00\x00\x00\x00\x01", "leveldb-log"),
        f".nextflow/cache/{session}/db/CURRENT": "MANIFEST-000002\n",
        f".nextflow/cache/{session}/db/LOCK": "",
        f".nextflow/cache/{session}/db/MANIFEST-000002": _blob(b"\x56\x00\x00\x00\x01", "manifest"),
        f".nextflow/cache/{session}/index.pensive_curie": _blob(b"\x00\x00\x00\x20", "index"),
        f"results/pipeline_info/execution_trace_{stamp}.txt": lines(
            "task_id\thash\tnative_id\tname\tstatus\texit\tsubmit\tduration\trealtime\t%cpu\tpeak_rss",
            *(
                f"{i}\t{_hex(s + 'fp', 2)}/{_hex(s + 'fp2', 6)}\t-\tRNASEQ_LITE:FASTP ({s})\tCOMPLETED\t0\t2024-06-11 10:15:10.000\t9.8s\t8.1s\t180.2%\t212.4 MB"  # noqa: E501
                for i, s in enumerate(_NF_SAMPLES, 1)
            ),
        ),
        f"results/pipeline_info/execution_report_{stamp}.html": lines(
            "<!DOCTYPE html>",
            "<html><head><title>[pensive_curie] Nextflow Workflow Report</title></head>",
        ),
        f"results/pipeline_info/execution_timeline_{stamp}.html": lines(
            "<!doctype html>",
            "<!--",
            "  Copyright 2013-2024, Seqera Labs",
            "-->",
            "<html><head><title>Processes execution timeline</title></head>",
        ),
        "results/multiqc/multiqc_report.html": lines(
            "<!DOCTYPE html>",
            "<!--",
            "MultiQC v1.21",
            "-->",
            '<html lang="en"><head><title>MultiQC Report</title></head>',
        ),
        "results/merge/salmon.merged.gene_counts.tsv": lines(
            "gene_id\t" + "\t".join(_NF_SAMPLES), "ENSG00000141510\t512\t498\t77\t81"
        ),
    }
    for sample in _NF_SAMPLES:
        h1, h2 = _hex(sample + "fp", 2), _hex(sample + "fp-full", 30)
        task = f"work/{h1}/{h2}"
        out[f"{task}/.command.sh"] = lines(
            "#!/bin/bash -ue",
            f"fastp --in1 {sample}_1.fastq.gz --in2 {sample}_2.fastq.gz \\",
            f"    --out1 {sample}_1.fastp.fastq.gz --out2 {sample}_2.fastp.fastq.gz \\",
            f"    --json {sample}.fastp.json --html {sample}.fastp.html \\",
            "    --thread 2 --qualified_quality_phred 20 --length_required 25",
        )
        out[f"{task}/.command.run"] = lines(
            "#!/bin/bash",
            f"# NEXTFLOW TASK: RNASEQ_LITE:FASTP ({sample})",
            "set -e",
            "set -u",
            "NXF_DEBUG=${NXF_DEBUG:=0}; [[ $NXF_DEBUG > 1 ]] && set -x",
            "NXF_ENTRY=${1:-nxf_main}",
        )
        out[f"{task}/.command.log"] = lines(
            f"Read1 before filtering: total reads: 25000 ({sample})"
        )
        out[f"{task}/.exitcode"] = "0"
        out[f"{task}/{sample}.fastp.json"] = (
            json.dumps(
                {"summary": {"fastp_version": "0.23.4", "before_filtering": {"total_reads": 50000}}}
            )
            + "\n"
        )
        out[f"results/fastp/{sample}.fastp.json"] = out[f"{task}/{sample}.fastp.json"]
        out[f"results/fastp/{sample}.fastp.html"] = lines(
            "<!DOCTYPE html>",
            f"<html><head><title>fastp report at 2024-06-11 10:15:19 ({sample})</title></head>",
        )
        out[f"results/salmon/{sample}/quant.sf"] = lines(
            "Name\tLength\tEffectiveLength\tTPM\tNumReads",
            "ENST00000269305\t2579\t2330.0\t151.8\t512.0",
        )
        h3, h4 = _hex(sample + "sq", 2), _hex(sample + "sq-full", 30)
        out[f"work/{h3}/{h4}/.command.sh"] = lines(
            "#!/bin/bash -ue",
            f"salmon quant --libType A -i salmon -1 {sample}_1.fastp.fastq.gz -2 {sample}_2.fastp.fastq.gz -o {sample}",  # noqa: E501
        )
        out[f"work/{h3}/{h4}/.exitcode"] = "0"
    return out


def _nextflow_files() -> dict[str, str | bytes]:
    modules = {
        "samplesheet_check": (
            "python:3.11",
            ["check_samplesheet.py $samplesheet samplesheet.valid.csv"],
            ["path '*.csv', emit: csv"],
            "Validate the sample sheet",
            "https://github.com/lab/rnaseq-lite",
        ),
        "fastqc": (
            "biocontainers/fastqc:0.12.1--hdfd78af_0",
            ["fastqc $args --threads $task.cpus $reads"],
            ["tuple val(meta), path('*.zip'), emit: zip"],
            "FastQC read QC",
            "https://www.bioinformatics.babraham.ac.uk/projects/fastqc/",
        ),
        "trimgalore": (
            "biocontainers/trim-galore:0.6.7--hdfd78af_0",
            ["trim_galore $args --cores $task.cpus --paired --gzip $reads"],
            [
                "tuple val(meta), path('*.fq.gz'), emit: reads",
                "tuple val(meta), path('*report.txt'), emit: log",
            ],
            "Adapter and quality trimming",
            "https://github.com/FelixKrueger/TrimGalore",
        ),
        "salmon_index": (
            "biocontainers/salmon:1.10.1--h7e5ed60_0",
            ["salmon index --threads $task.cpus -t $transcripts -i salmon"],
            ["path 'salmon', emit: index"],
            "Salmon index",
            "https://salmon.readthedocs.io",
        ),
        "salmon_quant": (
            "biocontainers/salmon:1.10.1--h7e5ed60_0",
            ["salmon quant $args --libType A -i $index -1 ${reads[0]} -2 ${reads[1]} -o $meta.id"],
            ['tuple val(meta), path("${meta.id}"), emit: quant'],
            "Salmon quantification",
            "https://salmon.readthedocs.io",
        ),
        "merge_counts": (
            "rocker/tidyverse:4.3.2",
            ["merge_counts.R $quants $tx2gene"],
            ["path '*.tsv', emit: counts"],
            "tximport gene-level counts",
            "https://bioconductor.org/packages/tximport",
        ),
        "multiqc": (
            "biocontainers/multiqc:1.21--pyhdfd78af_0",
            ["multiqc -f $args ."],
            ["path '*multiqc_report.html', emit: report"],
            "Aggregate QC",
            "https://multiqc.info",
        ),
    }
    files: dict[str, str | bytes] = {
        # Written by hand for the first prototype: none of Nextflow's own folders in it.
        ".gitignore": lines("*.pyc", ".DS_Store", ".Rhistory"),
        "main.nf": lines(
            "#!/usr/bin/env nextflow",
            "nextflow.enable.dsl = 2",
            "",
            "include { RNASEQ_LITE } from './workflows/rnaseq_lite'",
            "",
            "workflow {",
            "    RNASEQ_LITE ()",
            "}",
        ),
        "nextflow.config": _NF_CONFIG,
        "nextflow_schema.json": json.dumps(
            {
                "$schema": "http://json-schema.org/draft-07/schema",
                "title": "rnaseq-lite parameters",
                "type": "object",
                "definitions": {
                    "trimming": {
                        "properties": {
                            "trim_quality": {"type": "integer", "default": 20},
                            "trim_min_len": {"type": "integer", "default": 25},
                        }
                    }
                },
            },
            indent=2,
        )
        + "\n",
        "conf/base.config": lines(
            "process {",
            "    cpus = 2",
            "    memory = '4.GB'",
            "    withLabel:process_medium { cpus = 4; memory = '12.GB' }",
            "}",
        ),
        "conf/modules.config": _NF_MODULES_CONFIG,
        "conf/test.config": lines(
            "params {",
            "    config_profile_name = 'Test profile'",
            '    input       = "${projectDir}/assets/samplesheet_test.csv"',
            '    transcripts = "${projectDir}/tests/data/transcripts.fa"',
            '    tx2gene     = "${projectDir}/tests/data/tx2gene.tsv"',
            "    max_cpus    = 2",
            "    max_memory  = '6.GB'",
            "}",
        ),
        "conf/slurm.config": lines("process { executor = 'slurm'; queue = 'short' }"),
        "workflows/rnaseq_lite.nf": _NF_WORKFLOW_OLD,
        "subworkflows/local/input_check.nf": lines(
            "include { SAMPLESHEET_CHECK } from '../../modules/local/samplesheet_check/main'",
            "workflow INPUT_CHECK {",
            "    take: samplesheet",
            "    main:",
            "    SAMPLESHEET_CHECK ( samplesheet ).csv.splitCsv(header: true).map { row -> [[id: row.sample], [file(row.fastq_1), file(row.fastq_2)]] }.set { reads }",  # noqa: E501
            "    emit: reads",
            "}",
        ),
        "bin/check_samplesheet.py": lines(
            "#!/usr/bin/env python3",
            '"""Check the sample sheet: sample,fastq_1,fastq_2."""',
            "import csv, sys",
        ),
        "bin/merge_counts.R": lines(
            "#!/usr/bin/env Rscript", "suppressPackageStartupMessages(library(tximport))"
        ),
        "assets/samplesheet_test.csv": lines(
            "sample,fastq_1,fastq_2",
            *(f"{s},tests/data/{s}_1.fastq.gz,tests/data/{s}_2.fastq.gz" for s in _NF_SAMPLES),
        ),
        "assets/multiqc_config.yml": lines(
            "report_comment: rnaseq-lite", "top_modules: [fastqc, cutadapt, salmon]"
        ),
        "assets/schema_input.json": json.dumps(
            {"type": "array", "items": {"required": ["sample", "fastq_1"]}}
        )
        + "\n",
        "environment.yml": lines(
            "name: rnaseq-lite",
            "channels: [conda-forge, bioconda]",
            "dependencies:",
            "  - fastqc=0.12.1",
            "  - trim-galore=0.6.7",
            "  - salmon=1.10.1",
            "  - multiqc=1.21",
            "  - bioconductor-tximport=1.30.0",
        ),
        "Dockerfile": lines(
            "FROM mambaorg/micromamba:1.5.6",
            "COPY environment.yml /tmp/env.yml",
            "RUN micromamba install -y -n base -f /tmp/env.yml",
        ),
        "README.md": lines("# rnaseq-lite", "", "`nextflow run . -profile test,docker`"),
        "CHANGELOG.md": lines("# Changelog", "", "## 0.6.0", "", "- MultiQC 1.21."),
        "LICENSE": lines("MIT License", "", "Copyright (c) 2024 the lab"),
        "docs/usage.md": lines("# Usage", "", "Provide a sample sheet with `--input`."),
        "docs/output.md": lines(
            "# Output",
            "",
            "- `fastqc/`: per-sample FastQC reports",
            "- `trimgalore/`: trimmed reads (optional) and trimming reports",
            "- `salmon/`: per-sample quantification",
            "- `merge/`: gene-level count matrix",
            "- `multiqc/`: the MultiQC report",
        ),
        ".github/workflows/ci.yml": _NF_CI,
        "tests/data/transcripts.fa": lines(
            ">ENST00000269305", "ATGGAGGAGCCGCAGTCAGATCCTAGCGTCGAGCCCCCTCTGAGTCAGGAAACATTTTCAG"
        ),
        "tests/data/tx2gene.tsv": lines("ENST00000269305\tENSG00000141510\tTP53"),
    }
    for sample in _NF_SAMPLES:
        for read in (1, 2):
            files[f"tests/data/{sample}_{read}.fastq.gz"] = _blob(GZIP, f"{sample}{read}", 120)
    for name, (container, script, outputs, tool, home) in modules.items():
        files[f"modules/local/{name}/main.nf"] = _nf_module(name, container, script, outputs)
        files[f"modules/local/{name}/meta.yml"] = _nf_meta(name, tool, home)
    return files


def _nextflow(s: Scene) -> None:
    s.commit("rnaseq-lite 0.6.0", _nextflow_files(), days_ago=40)
    s.commit(
        "docs: output layout",
        {"docs/output.md": _read(s, "docs/output.md") + "- `pipeline_info/`: trace and report\n"},
        days_ago=8,
    )
    # No memory at all: the user never set an intent (they asked in chat to swap Trim
    # Galore for fastp). With nothing to measure against, nothing is drift.
    s.intent(None)
    run = _nf_run("fastp")
    s.agent(
        {
            "modules/local/fastp/main.nf": _nf_module(
                "fastp",
                "biocontainers/fastp:0.23.4--h5f740d0_0",
                [
                    "fastp --in1 ${reads[0]} --in2 ${reads[1]} \\",
                    "    --out1 ${meta.id}_1.fastp.fastq.gz --out2 ${meta.id}_2.fastp.fastq.gz \\",
                    "    --json ${meta.id}.fastp.json --html ${meta.id}.fastp.html \\",
                    "    --thread $task.cpus $args",
                ],
                [
                    "tuple val(meta), path('*.fastp.fastq.gz'), emit: reads",
                    "tuple val(meta), path('*.json'), emit: json",
                    "tuple val(meta), path('*.html'), emit: html",
                ],
            ),
            "modules/local/fastp/meta.yml": _nf_meta(
                "fastp", "All-in-one FASTQ preprocessor", "https://github.com/OpenGene/fastp"
            ),
            "workflows/rnaseq_lite.nf": _NF_WORKFLOW_NEW,
            "conf/modules.config": _NF_MODULES_CONFIG.replace(
                "    withName: 'TRIMGALORE' {\n"
                '        ext.args = { "--quality ${params.trim_quality} --length ${params.trim_min_len}" }\n',  # noqa: E501
                "    withName: 'FASTP' {\n"
                '        ext.args = { "--qualified_quality_phred ${params.trim_quality} --length_required ${params.trim_min_len} --detect_adapter_for_pe" }\n',  # noqa: E501
            ),
            "nextflow.config": _NF_CONFIG.replace(
                "    trim_min_len   = 25\n",
                "    trim_min_len   = 25\n    save_trimmed   = false\n",
            ),
            "environment.yml": _read(s, "environment.yml").replace(
                "  - trim-galore=0.6.7\n", "  - fastp=0.23.4\n"
            ),
            "docs/output.md": _read(s, "docs/output.md").replace(
                "- `trimgalore/`: trimmed reads (optional) and trimming reports",
                "- `fastp/`: fastp JSON and HTML reports (trimmed reads with `--save_trimmed`)",
            ),
            "CHANGELOG.md": _read(s, "CHANGELOG.md").replace(
                "## 0.6.0", "## Unreleased\n\n- Trim Galore replaced by fastp.\n\n## 0.6.0"
            ),
            ".github/workflows/ci.yml": _NF_CI.replace("'23.10.1'", "'24.04.2'").replace(
                "nf-core/setup-nextflow@v1", "nf-core/setup-nextflow@v2"
            ),
            **run,
        },
        delete=["modules/local/trimgalore/main.nf", "modules/local/trimgalore/meta.yml"],
    )
    s.fine(
        "modules/local/fastp/main.nf",
        "modules/local/fastp/meta.yml",
        "modules/local/trimgalore/main.nf",  # deleted
        "modules/local/trimgalore/meta.yml",  # deleted
        "workflows/rnaseq_lite.nf",
        "conf/modules.config",
        "nextflow.config",
        "environment.yml",
        "docs/output.md",
        "CHANGELOG.md",
        # With an intent this CI bump would be drift; with empty memory it is in scope.
        ".github/workflows/ci.yml",
    )
    s.excluded(*run)
    s.safe_commit()
    s.note = (
        "empty memory: every change in scope, nothing drift; two pipeline runs left work/, "
        ".nextflow/, .nextflow.log* and results/ (none ignored) — excluded; no checkpoint"
    )


# -- 7. Yarn Berry monorepo (Plug'n'Play, zero-install) with Turborepo -----------------------------

_YB_OLD_VERSION, _YB_NEW_VERSION = "4.1.1", "4.3.1"

#: Packages already in the zero-install cache: name -> version.
_YB_BASE: dict[str, str] = {
    "react": "18.2.0",
    "react-dom": "18.2.0",
    "loose-envify": "1.4.0",
    "js-tokens": "4.0.0",
    "scheduler": "0.23.0",
    "next": "14.1.4",
    "vite": "5.2.8",
    "@vitejs/plugin-react": "4.2.1",
    "typescript": "5.4.3",
    "turbo": "1.13.2",
    "tsup": "8.0.2",
    "vitest": "1.4.0",
    "@testing-library/react": "14.2.2",
    "@testing-library/user-event": "14.5.2",
    "clsx": "2.1.0",
    "esbuild": "0.20.2",
    "eslint": "8.57.0",
    "prettier": "3.2.5",
    "@types/react": "18.2.73",
    "@types/react-dom": "18.2.23",
    "@types/node": "20.12.2",
    "zod": "3.22.4",
    "react-hook-form": "7.51.2",
    "@tanstack/react-query": "5.28.9",
    "postcss": "8.4.38",
    "nanoid": "3.3.7",
    "picocolors": "1.0.0",
    "source-map-js": "1.2.0",
}

#: What `yarn add react-day-picker date-fns @radix-ui/react-popover` brings in.
_YB_ADDED: dict[str, str] = {
    "react-day-picker": "8.10.0",
    "date-fns": "3.6.0",
    "@radix-ui/react-popover": "1.0.7",
    "@radix-ui/primitive": "1.0.1",
    "@radix-ui/react-compose-refs": "1.0.1",
    "@radix-ui/react-context": "1.0.1",
    "@radix-ui/react-dismissable-layer": "1.0.5",
    "@radix-ui/react-focus-guards": "1.0.1",
    "@radix-ui/react-focus-scope": "1.0.4",
    "@radix-ui/react-id": "1.0.1",
    "@radix-ui/react-popper": "1.1.3",
    "@radix-ui/react-portal": "1.0.4",
    "@radix-ui/react-presence": "1.0.1",
    "@radix-ui/react-primitive": "1.0.3",
    "@radix-ui/react-slot": "1.0.2",
    "@radix-ui/react-arrow": "1.0.3",
    "@radix-ui/react-use-callback-ref": "1.0.1",
    "@radix-ui/react-use-controllable-state": "1.0.1",
    "@radix-ui/react-use-escape-keydown": "1.0.3",
    "@radix-ui/react-use-layout-effect": "1.0.1",
    "@radix-ui/react-use-rect": "1.0.1",
    "@radix-ui/react-use-size": "1.0.1",
    "@radix-ui/rect": "1.0.1",
    "@floating-ui/react-dom": "2.0.8",
    "@floating-ui/dom": "1.6.3",
    "@floating-ui/core": "1.6.0",
    "@floating-ui/utils": "0.2.1",
    "@babel/runtime": "7.24.1",
    "regenerator-runtime": "0.14.1",
    "aria-hidden": "1.2.4",
    "react-remove-scroll": "2.5.5",
    "react-remove-scroll-bar": "2.3.6",
    "react-style-singleton": "2.2.1",
    "use-callback-ref": "1.3.2",
    "use-sidecar": "1.1.2",
    "get-nonce": "1.0.1",
    "detect-node-es": "1.1.0",
    "tslib": "2.6.2",
}


def _yb_zip_name(name: str, version: str) -> str:
    slug = name.replace("/", "-")
    return f".yarn/cache/{slug}-npm-{version}-{_hex(name + version, 10)}-{_hex(version + name, 10)}.zip"  # noqa: E501


def _yb_cache(pkgs: Mapping[str, str]) -> dict[str, bytes]:
    return {
        _yb_zip_name(n, v): ZIP + f"node_modules/{n}/package.json".encode() + _blob(b"", n + v, 64)
        for n, v in pkgs.items()
    }


_YB_WORKSPACES = {
    "acme-web": ".",
    "@acme/web": "apps/web",
    "@acme/admin": "apps/admin",
    "@acme/ui": "packages/ui",
    "@acme/utils": "packages/utils",
    "@acme/tsconfig": "packages/tsconfig",
    "@acme/eslint-config": "packages/eslint-config",
}


def _yb_lock(pkgs: Mapping[str, str], ui_deps: Mapping[str, str]) -> str:
    out = [
        '# This file is generated by running "yarn install" inside your project.',
        "# Manual changes might be lost - proceed with caution!",
        "",
        "__metadata:",
        "  version: 8",
        "  cacheKey: 10c0",
        "",
    ]
    for name, version in sorted(pkgs.items()):
        out += [
            f'"{name}@npm:^{version}":',
            f"  version: {version}",
            f'  resolution: "{name}@npm:{version}"',
            f"  checksum: 10c0/{_hex(name + version + 'sum', 128)}",
            "  languageName: node",
            "  linkType: hard",
            "",
        ]
    for name, where in sorted(_YB_WORKSPACES.items()):
        entry = f"{name}@workspace:{where}"
        out += [f'"{entry}":', "  version: 0.0.0-use.local", f'  resolution: "{entry}"']
        if name == "@acme/ui":
            out.append("  dependencies:")
            out += [f'    {d}: "npm:{r}"' for d, r in sorted(ui_deps.items())]
        out += ["  languageName: unknown", "  linkType: soft", ""]
    return lines(*out)


def _yb_pnp(pkgs: Mapping[str, str]) -> str:
    """.pnp.cjs as `yarn install` writes it (the runtime state, abridged)."""
    state = {
        "__info": [
            "This file is automatically generated. Do not touch it, or risk",
            "your modifications being lost.",
        ],
        "dependencyTreeRoots": [
            {"name": n, "reference": f"workspace:{w}"} for n, w in _YB_WORKSPACES.items()
        ],
        "enableTopLevelFallback": True,
        "ignorePatternData": "(^(?:\\\\.yarn\\\\/sdks(?:\\\\/(?!\\\\.{1,2}(?:\\\\/|$))(?:(?:(?!(?:^|\\\\/)\\\\.{1,2}(?:\\\\/|$)).)*?)|$))$)",  # noqa: E501
        "packageRegistryData": [
            [
                n,
                [
                    [
                        f"npm:{v}",
                        {
                            "packageLocation": f"./{_yb_zip_name(n, v)}/node_modules/{n}/",
                            "linkType": "HARD",
                        },
                    ]
                ],
            ]
            for n, v in sorted(pkgs.items())
        ],
    }
    return (
        '#!/usr/bin/env node\n/* eslint-disable */\n// @ts-nocheck\n"use strict";\n\n'
        "const RAW_RUNTIME_STATE =\n'"
        + json.dumps(state, indent=2).replace("\n", "\\\n")
        + "';\n\nfunction $$SETUP_STATE(hydrateRuntimeState, basePath) {\n"
        "  return hydrateRuntimeState(JSON.parse(RAW_RUNTIME_STATE), {basePath: basePath || __dirname});\n}\n"  # noqa: E501
    )


def _yb_loader(version: str) -> str:
    return lines(
        "/* eslint-disable */",
        "// @ts-nocheck",
        "",
        "import fs from 'fs';",
        "import { URL as URL$1, fileURLToPath, pathToFileURL } from 'url';",
        "import path from 'path';",
        "import { createHash } from 'crypto';",
        "import { EOL } from 'os';",
        "import esmModule, { createRequire, isBuiltin } from 'module';",
        "import assert from 'assert';",
        "",
        f"const SAFE_TIME = 456789000; // yarn {version}",
        f"const PORTABLE_PATH_{_hex(version, 6)} = true;",
    )


def _yb_release(version: str) -> str:
    return lines(
        "#!/usr/bin/env node",
        "/* eslint-disable */",
        "//prettier-ignore",
        f"(()=>{{var xge=Object.create;var lT=Object.defineProperty;var Pge=Object.getOwnPropertyDescriptor;/* yarn {version} {_hex(version, 40)} */}})();",  # noqa: E501
    )


def _yb_root_package(version: str) -> str:
    return (
        json.dumps(
            {
                "name": "acme-web",
                "private": True,
                "workspaces": ["apps/*", "packages/*"],
                "scripts": {
                    "build": "turbo run build",
                    "dev": "turbo run dev",
                    "lint": "turbo run lint",
                    "test": "turbo run test",
                },
                "devDependencies": {
                    "prettier": "^3.2.5",
                    "turbo": "^1.13.2",
                    "typescript": "^5.4.3",
                },
                "packageManager": f"yarn@{version}",
            },
            indent=2,
        )
        + "\n"
    )


_YB_YARNRC = lines(
    "compressionLevel: mixed",
    "",
    "enableGlobalCache: false",
    "",
    "nodeLinker: pnp",
    "",
    f"yarnPath: .yarn/releases/yarn-{_YB_OLD_VERSION}.cjs",
)

_YB_TURBO = (
    json.dumps(
        {
            "$schema": "https://turbo.build/schema.json",
            "globalDependencies": ["**/.env.*local"],
            "pipeline": {
                "build": {
                    "dependsOn": ["^build"],
                    "outputs": [".next/**", "!.next/cache/**", "dist/**"],
                },
                "lint": {"dependsOn": ["^lint"]},
                "test": {"dependsOn": ["^build"], "outputs": ["coverage/**"]},
                "dev": {"cache": False, "persistent": True},
            },
        },
        indent=2,
    )
    + "\n"
)


def _yb_ui_package(deps: Mapping[str, str]) -> str:
    return (
        json.dumps(
            {
                "name": "@acme/ui",
                "version": "0.0.0",
                "private": True,
                "main": "./dist/index.js",
                "types": "./dist/index.d.ts",
                "scripts": {"build": "tsup", "test": "vitest run", "lint": "eslint src"},
                "dependencies": dict(sorted(deps.items())),
                "peerDependencies": {"react": "^18.2.0"},
                "devDependencies": {
                    "@acme/tsconfig": "workspace:*",
                    "tsup": "^8.0.2",
                    "vitest": "^1.4.0",
                    "@testing-library/react": "^14.2.2",
                },
            },
            indent=2,
        )
        + "\n"
    )


_YB_UI_DEPS_OLD = {"clsx": "^2.1.0"}
_YB_UI_DEPS_NEW = {
    "clsx": "^2.1.0",
    "react-day-picker": "^8.10.0",
    "date-fns": "^3.6.0",
    "@radix-ui/react-popover": "^1.0.7",
}

_YB_UI_INDEX = lines(
    "export { Button } from './Button';",
    "export type { ButtonProps } from './Button';",
    "export { Field } from './Field';",
    "export { Input } from './Input';",
    "export { Modal } from './Modal';",
    "export { Select } from './Select';",
)

_YB_TASKFORM = lines(
    "import { useForm } from 'react-hook-form';",
    "import { Button, Field, Input, Select } from '@acme/ui';",
    "import { createTask, type NewTask } from '../../api';",
    "",
    "export function TaskForm({ onDone }: { onDone: () => void }) {",
    "  const { register, handleSubmit } = useForm<NewTask>();",
    "  return (",
    "    <form onSubmit={handleSubmit(async (t) => { await createTask(t); onDone(); })}>",
    "      <Field label=\"Title\"><Input {...register('title', { required: true })} /></Field>",
    "      <Field label=\"Assignee\"><Select {...register('assignee')} options={[]} /></Field>",
    '      <Field label="Due date"><Input type="date" {...register(\'dueDate\')} /></Field>',
    '      <Button type="submit">Create</Button>',
    "    </form>",
    "  );",
    "}",
)


def _yarn_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # Zero-install: the cache and the release are committed. `.turbo` is ignored only at
        # the root — each package's own .turbo/ logs are not.
        ".gitignore": lines(
            ".yarn/*",
            "!.yarn/cache",
            "!.yarn/patches",
            "!.yarn/plugins",
            "!.yarn/releases",
            "!.yarn/sdks",
            "!.yarn/versions",
            "/.turbo",
            "dist/",
            ".next/",
            "coverage/",
            ".env*.local",
        ),
        ".yarnrc.yml": _YB_YARNRC,
        "package.json": _yb_root_package(_YB_OLD_VERSION),
        "yarn.lock": _yb_lock(_YB_BASE, _YB_UI_DEPS_OLD),
        ".pnp.cjs": _yb_pnp(_YB_BASE),
        ".pnp.loader.mjs": _yb_loader(_YB_OLD_VERSION),
        f".yarn/releases/yarn-{_YB_OLD_VERSION}.cjs": _yb_release(_YB_OLD_VERSION),
        ".yarn/sdks/integrations.yml": lines(
            "# This file is automatically generated by @yarnpkg/sdks.",
            "# Manual changes might be lost!",
            "",
            "integrations:",
            "  - vscode",
        ),
        ".yarn/sdks/typescript/package.json": json.dumps(
            {
                "name": "typescript",
                "version": "5.4.3-sdk",
                "main": "./lib/typescript.js",
                "type": "commonjs",
            },
            indent=2,
        )
        + "\n",
        ".yarn/sdks/typescript/lib/tsserver.js": lines(
            "#!/usr/bin/env node",
            "",
            "const {existsSync} = require(`fs`);",
            "const {createRequire} = require(`module`);",
            "const {resolve} = require(`path`);",
        ),
        ".yarn/sdks/typescript/lib/typescript.js": lines(
            "#!/usr/bin/env node",
            "",
            "const {existsSync} = require(`fs`);",
            "const {createRequire} = require(`module`);",
        ),
        ".yarn/sdks/eslint/package.json": json.dumps(
            {"name": "eslint", "version": "8.57.0-sdk", "main": "./lib/api.js", "type": "commonjs"},
            indent=2,
        )
        + "\n",
        ".yarn/sdks/prettier/package.json": json.dumps(
            {"name": "prettier", "version": "3.2.5-sdk", "main": "./index.cjs", "type": "commonjs"},
            indent=2,
        )
        + "\n",
        ".vscode/settings.json": json.dumps(
            {
                "typescript.tsdk": ".yarn/sdks/typescript/lib",
                "typescript.enablePromptUseWorkspaceTsdk": True,
                "search.exclude": {"**/.yarn": True, "**/.pnp.*": True},
            },
            indent=2,
        )
        + "\n",
        ".vscode/extensions.json": json.dumps(
            {"recommendations": ["arcanis.vscode-zipfs", "dbaeumer.vscode-eslint"]}, indent=2
        )
        + "\n",
        "turbo.json": _YB_TURBO,
        "README.md": lines(
            "# acme-web", "", "Yarn 4 (PnP, zero-install) + Turborepo. `yarn build`, `yarn test`."
        ),
        ".github/workflows/ci.yml": lines(
            "name: CI",
            "on: [push]",
            "jobs:",
            "  ci:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: actions/setup-node@v4",
            "        with: { node-version: 20 }",
            "      - run: yarn install --immutable",
            "      - run: yarn turbo run lint test build",
        ),
        "apps/web/package.json": json.dumps(
            {
                "name": "@acme/web",
                "private": True,
                "scripts": {"build": "next build", "dev": "next dev"},
                "dependencies": {
                    "@acme/ui": "workspace:*",
                    "next": "^14.1.4",
                    "react": "^18.2.0",
                    "react-dom": "^18.2.0",
                },
            },
            indent=2,
        )
        + "\n",
        "apps/web/next.config.js": lines(
            "/** @type {import('next').NextConfig} */",
            "module.exports = { transpilePackages: ['@acme/ui'] };",
        ),
        "apps/web/tsconfig.json": json.dumps(
            {
                "extends": "@acme/tsconfig/nextjs.json",
                "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx"],
            },
            indent=2,
        )
        + "\n",
        "apps/web/app/layout.tsx": lines(
            "export default function RootLayout({ children }: { children: React.ReactNode }) {",
            '  return <html lang="en"><body>{children}</body></html>;',
            "}",
        ),
        "apps/web/app/page.tsx": lines(
            "import { Button } from '@acme/ui';",
            "export default function Page() { return <Button>Get started</Button>; }",
        ),
        "apps/web/app/pricing/page.tsx": lines(
            "export default function Pricing() { return <h1>Pricing</h1>; }"
        ),
        "apps/admin/package.json": json.dumps(
            {
                "name": "@acme/admin",
                "private": True,
                "type": "module",
                "scripts": {"build": "tsc && vite build", "dev": "vite", "test": "vitest run"},
                "dependencies": {
                    "@acme/ui": "workspace:*",
                    "@acme/utils": "workspace:*",
                    "@tanstack/react-query": "^5.28.9",
                    "react": "^18.2.0",
                    "react-dom": "^18.2.0",
                    "react-hook-form": "^7.51.2",
                },
            },
            indent=2,
        )
        + "\n",
        "apps/admin/vite.config.ts": lines(
            "import { defineConfig } from 'vite';",
            "import react from '@vitejs/plugin-react';",
            "export default defineConfig({ plugins: [react()] });",
        ),
        "apps/admin/tsconfig.json": json.dumps(
            {"extends": "@acme/tsconfig/react.json", "include": ["src"]}, indent=2
        )
        + "\n",
        "apps/admin/index.html": lines(
            "<!doctype html>",
            '<html lang="en"><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',  # noqa: E501
        ),
        "apps/admin/src/main.tsx": lines(
            "import { createRoot } from 'react-dom/client';",
            "import { App } from './App';",
            "createRoot(document.getElementById('root')!).render(<App />);",
        ),
        "apps/admin/src/App.tsx": lines(
            "import { TaskList } from './routes/tasks/TaskList';",
            "export function App() { return <TaskList />; }",
        ),
        "apps/admin/src/api.ts": lines(
            "export type NewTask = { title: string; assignee?: string; dueDate?: string };",
            "export async function createTask(t: NewTask) {",
            "  await fetch('/api/tasks', { method: 'POST', body: JSON.stringify(t) });",
            "}",
        ),
        "apps/admin/src/routes/tasks/TaskForm.tsx": _YB_TASKFORM,
        "apps/admin/src/routes/tasks/TaskForm.test.tsx": lines(
            "import { render, screen } from '@testing-library/react';",
            "import { describe, expect, it } from 'vitest';",
            "import { TaskForm } from './TaskForm';",
            "",
            "describe('TaskForm', () => {",
            "  it('renders the fields', () => {",
            "    render(<TaskForm onDone={() => {}} />);",
            "    expect(screen.getByLabelText('Title')).toBeTruthy();",
            "  });",
            "});",
        ),
        "apps/admin/src/routes/tasks/TaskList.tsx": lines(
            "import { useQuery } from '@tanstack/react-query';",
            "export function TaskList() { return <ul />; }",
        ),
        "packages/ui/package.json": _yb_ui_package(_YB_UI_DEPS_OLD),
        "packages/ui/tsconfig.json": json.dumps(
            {"extends": "@acme/tsconfig/react.json", "include": ["src"]}, indent=2
        )
        + "\n",
        "packages/ui/tsup.config.ts": lines(
            "import { defineConfig } from 'tsup';",
            "export default defineConfig({ entry: ['src/index.ts'], format: ['esm', 'cjs'], dts: true, external: ['react'] });",  # noqa: E501
        ),
        "packages/ui/vitest.config.ts": lines(
            "import { defineConfig } from 'vitest/config';",
            "export default defineConfig({ test: { environment: 'jsdom' } });",
        ),
        "packages/ui/src/index.ts": _YB_UI_INDEX,
        "packages/ui/src/Button.tsx": lines(
            "import clsx from 'clsx';",
            "export type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'ghost' };",  # noqa: E501
            "export function Button({ variant = 'primary', className, ...p }: ButtonProps) {",
            "  return <button className={clsx('btn', `btn-${variant}`, className)} {...p} />;",
            "}",
        ),
        "packages/ui/src/Button.test.tsx": lines(
            "import { render } from '@testing-library/react';",
            "import { it } from 'vitest';",
            "import { Button } from './Button';",
            "it('renders', () => { render(<Button>Hi</Button>); });",
        ),
        "packages/ui/src/Field.tsx": lines(
            "export function Field({ label, children }: { label: string; children: React.ReactNode }) {",  # noqa: E501
            "  return <label>{label}{children}</label>;",
            "}",
        ),
        "packages/ui/src/Input.tsx": lines(
            "import { forwardRef } from 'react';",
            'export const Input = forwardRef<HTMLInputElement, React.InputHTMLAttributes<HTMLInputElement>>((p, ref) => <input ref={ref} className="input" {...p} />);',  # noqa: E501
        ),
        "packages/ui/src/Select.tsx": lines(
            "import { forwardRef } from 'react';",
            "export const Select = forwardRef<HTMLSelectElement, any>(({ options, ...p }, ref) => <select ref={ref} {...p} />);",  # noqa: E501
        ),
        "packages/ui/src/Modal.tsx": lines(
            "export function Modal({ open, children }: { open: boolean; children: React.ReactNode }) {",  # noqa: E501
            '  return open ? <div role="dialog">{children}</div> : null;',
            "}",
        ),
        "packages/ui/src/styles.css": lines(
            ".btn { border-radius: 6px; }", ".input { border: 1px solid #d4d4d8; }"
        ),
        "packages/utils/package.json": json.dumps(
            {"name": "@acme/utils", "private": True, "main": "./src/index.ts"}, indent=2
        )
        + "\n",
        "packages/utils/src/index.ts": lines(
            "export * from './dates';", "export * from './format';"
        ),
        "packages/utils/src/dates.ts": lines(
            "export const isoDate = (d: Date) => d.toISOString().slice(0, 10);"
        ),
        "packages/utils/src/format.ts": lines(
            "export const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;"
        ),
        "packages/tsconfig/package.json": json.dumps(
            {"name": "@acme/tsconfig", "private": True, "files": ["*.json"]}, indent=2
        )
        + "\n",
        "packages/tsconfig/base.json": json.dumps(
            {
                "compilerOptions": {
                    "strict": True,
                    "moduleResolution": "bundler",
                    "skipLibCheck": True,
                }
            },
            indent=2,
        )
        + "\n",
        "packages/tsconfig/react.json": json.dumps(
            {"extends": "./base.json", "compilerOptions": {"jsx": "react-jsx"}}, indent=2
        )
        + "\n",
        "packages/tsconfig/nextjs.json": json.dumps(
            {
                "extends": "./base.json",
                "compilerOptions": {"jsx": "preserve", "plugins": [{"name": "next"}]},
            },
            indent=2,
        )
        + "\n",
        "packages/eslint-config/package.json": json.dumps(
            {"name": "@acme/eslint-config", "private": True, "main": "index.js"}, indent=2
        )
        + "\n",
        "packages/eslint-config/index.js": lines(
            "module.exports = { extends: ['eslint:recommended'] };"
        ),
    }
    files.update(_yb_cache(_YB_BASE))
    return files


def _yarn(s: Scene) -> None:
    s.commit("acme-web monorepo", _yarn_files(), days_ago=65)
    s.commit(
        "admin: task list",
        {
            "apps/admin/src/routes/tasks/TaskList.tsx": _read(
                s, "apps/admin/src/routes/tasks/TaskList.tsx"
            )
            + "// paginated server-side\n"
        },
        days_ago=3,
    )
    s.intent(
        "Add a DatePicker to @acme/ui (react-day-picker in a Radix popover), export it, and "
        "use it for the due-date field of the admin task form",
        {
            "packages/ui/src/index.ts": "exports",
            "apps/admin/src/routes/tasks/TaskForm.tsx": "the due-date field",
        },
        hours_ago=2,
    )
    before = s.checkpoint("before the date picker")
    all_pkgs = {**_YB_BASE, **_YB_ADDED}
    added_zips = _yb_cache(_YB_ADDED)
    old_release = f".yarn/releases/yarn-{_YB_OLD_VERSION}.cjs"
    new_release = f".yarn/releases/yarn-{_YB_NEW_VERSION}.cjs"
    s.agent(
        {
            "packages/ui/src/DatePicker.tsx": lines(
                "import * as Popover from '@radix-ui/react-popover';",
                "import { format } from 'date-fns';",
                "import { forwardRef, useState } from 'react';",
                "import { DayPicker } from 'react-day-picker';",
                "import 'react-day-picker/dist/style.css';",
                "",
                "export type DatePickerProps = {",
                "  value?: Date;",
                "  onChange: (d: Date | undefined) => void;",
                "  placeholder?: string;",
                "};",
                "",
                "export const DatePicker = forwardRef<HTMLButtonElement, DatePickerProps>(",
                "  ({ value, onChange, placeholder = 'Pick a date' }, ref) => {",
                "    const [open, setOpen] = useState(false);",
                "    return (",
                "      <Popover.Root open={open} onOpenChange={setOpen}>",
                '        <Popover.Trigger ref={ref} className="input">',
                "          {value ? format(value, 'PP') : placeholder}",
                "        </Popover.Trigger>",
                "        <Popover.Portal>",
                '          <Popover.Content align="start" sideOffset={4}>',
                '            <DayPicker mode="single" selected={value} onSelect={(d) => { onChange(d); setOpen(false); }} />',  # noqa: E501
                "          </Popover.Content>",
                "        </Popover.Portal>",
                "      </Popover.Root>",
                "    );",
                "  },",
                ");",
            ),
            "packages/ui/src/DatePicker.test.tsx": lines(
                "import { render, screen } from '@testing-library/react';",
                "import userEvent from '@testing-library/user-event';",
                "import { expect, it, vi } from 'vitest';",
                "import { DatePicker } from './DatePicker';",
                "",
                "it('opens a calendar and reports the chosen day', async () => {",
                "  const onChange = vi.fn();",
                "  render(<DatePicker onChange={onChange} />);",
                "  await userEvent.click(screen.getByText('Pick a date'));",
                "  await userEvent.click(screen.getByRole('gridcell', { name: '15' }));",
                "  expect(onChange).toHaveBeenCalledOnce();",
                "});",
            ),
            "packages/ui/src/index.ts": _YB_UI_INDEX.replace(
                "export { Field } from './Field';\n",
                "export { DatePicker } from './DatePicker';\n"
                "export type { DatePickerProps } from './DatePicker';\n"
                "export { Field } from './Field';\n",
            ),
            "packages/ui/package.json": _yb_ui_package(_YB_UI_DEPS_NEW),
            "yarn.lock": _yb_lock(all_pkgs, _YB_UI_DEPS_NEW),
            # `yarn install` with zero-install: the new archives and the PnP map.
            ".pnp.cjs": _yb_pnp(all_pkgs),
            **added_zips,
            # `yarn set version stable` first, "because 4.1 warned about the lockfile".
            ".yarnrc.yml": _YB_YARNRC.replace(_YB_OLD_VERSION, _YB_NEW_VERSION),
            "package.json": _yb_root_package(_YB_NEW_VERSION),
            new_release: _yb_release(_YB_NEW_VERSION),
            ".pnp.loader.mjs": _yb_loader(_YB_NEW_VERSION),
        },
        delete=[old_release],
    )
    s.checkpoint("date picker builds")
    turbo_logs = {
        "packages/ui/.turbo/turbo-build.log": lines(
            "",
            "> @acme/ui@0.0.0 build /home/dev/acme-web/packages/ui",
            "> tsup",
            "",
            "CLI Building entry: src/index.ts",
            "CLI Using tsconfig: tsconfig.json",
            "CLI tsup v8.0.2",
            "ESM dist/index.mjs 6.21 KB",
            "CJS dist/index.js 7.02 KB",
            "DTS ⚡️ Build success in 1421ms",
        ),
        "packages/ui/.turbo/turbo-test.log": lines(
            "",
            "> @acme/ui@0.0.0 test",
            "> vitest run",
            "",
            " ✓ src/DatePicker.test.tsx (1)",
            " ✓ src/Button.test.tsx (1)",
            "",
            " Test Files  2 passed (2)",
        ),
        "apps/admin/.turbo/turbo-build.log": lines(
            "",
            "> @acme/admin@0.0.0 build",
            "> tsc && vite build",
            "",
            "vite v5.2.8 building for production...",
            "✓ 412 modules transformed.",
        ),
    }
    s.agent(
        {
            "apps/admin/src/routes/tasks/TaskForm.tsx": _YB_TASKFORM.replace(
                "import { useForm } from 'react-hook-form';\n",
                "import { Controller, useForm } from 'react-hook-form';\n",
            )
            .replace(
                "import { Button, Field, Input, Select } from '@acme/ui';\n",
                "import { Button, DatePicker, Field, Input, Select } from '@acme/ui';\n",
            )
            .replace(
                "  const { register, handleSubmit } = useForm<NewTask>();\n",
                "  const { control, register, handleSubmit } = useForm<NewTask>();\n",
            )
            .replace(
                '      <Field label="Due date"><Input type="date" {...register(\'dueDate\')} /></Field>\n',  # noqa: E501
                '      <Field label="Due date">\n'
                '        <Controller control={control} name="dueDate" render={({ field }) => (\n'
                "          <DatePicker value={field.value ? new Date(field.value) : undefined}\n"
                "            onChange={(d) => field.onChange(d?.toISOString().slice(0, 10))} />\n"
                "        )} />\n"
                "      </Field>\n",
            ),
            "apps/admin/src/routes/tasks/TaskForm.test.tsx": _read(
                s, "apps/admin/src/routes/tasks/TaskForm.test.tsx"
            ).replace(
                "    expect(screen.getByLabelText('Title')).toBeTruthy();\n",
                "    expect(screen.getByLabelText('Title')).toBeTruthy();\n"
                "    expect(screen.getByText('Pick a date')).toBeTruthy();\n",
            ),
            # "Turbo 2 ready": pipeline renamed to tasks and remote caching switched on.
            "turbo.json": _YB_TURBO.replace('"pipeline"', '"tasks"').replace(
                '"globalDependencies": [\n    "**/.env.*local"\n  ],',
                '"globalDependencies": [\n    "**/.env.*local"\n  ],\n  "remoteCache": {\n    "signature": true\n  },',  # noqa: E501
            ),
            **turbo_logs,
        }
    )
    s.fine(
        "packages/ui/src/DatePicker.tsx",
        "packages/ui/src/DatePicker.test.tsx",
        "packages/ui/src/index.ts",
        "packages/ui/package.json",
        # Written by Yarn, but it moved for the three dependencies the picker needs.
        "yarn.lock",
        "apps/admin/src/routes/tasks/TaskForm.tsx",
        "apps/admin/src/routes/tasks/TaskForm.test.tsx",
    )
    # The unasked Yarn upgrade shows in the two hand-readable files; turbo.json's
    # migration and remote cache are config nobody asked for.
    s.drift(".yarnrc.yml", "package.json", "turbo.json")
    # Zero-install archives, the PnP map and loader, the Yarn release itself (old one
    # deleted, new one added) and per-package turbo logs: all machine-made or vendored.
    s.excluded(
        ".pnp.cjs",
        ".pnp.loader.mjs",
        old_release,
        new_release,
        *added_zips,
        *turbo_logs,
    )
    s.safe_checkpoint(before)
    s.note = (
        "generated flood (38 Yarn cache zips); the first turn mixed the picker with `yarn set "
        "version`, so only the checkpoint before the work is clean; per-package .turbo/ logs"
    )


# -- 8. ESP-IDF firmware, stale intent ------------------------------------------------------------


def _idf_lock(led_strip: bool) -> str:
    deps = []
    if led_strip:
        deps += [
            "  espressif/led_strip:",
            "    component_hash: 28c6509a727ef74925b372ed404772aeedf11cce10b78c3f69b3c66799095e2d",
            "    dependencies:",
            "    - name: idf",
            "      require: private",
            "      version: '>=4.4'",
            "    source:",
            "      registry_url: https://components.espressif.com/",
            "      type: service",
            "    version: 2.5.3",
        ]
    deps += [
        "  idf:",
        "    source:",
        "      type: idf",
        "    version: 5.1.2",
    ]
    return lines(
        "dependencies:",
        *deps,
        "direct_dependencies:",
        *(["- espressif/led_strip"] if led_strip else []),
        "- idf",
        f"manifest_hash: {_hex('manifest' + str(led_strip), 64)}",
        "target: esp32c3",
        "version: 2.0.0",
    )


def _idf_sdkconfig(led: bool) -> str:
    out = [
        "#",
        "# Automatically generated file. DO NOT EDIT.",
        "# Espressif IoT Development Framework (ESP-IDF) 5.1.2 Project Configuration",
        "#",
        "CONFIG_SOC_CPU_CORES_NUM=1",
        'CONFIG_IDF_TARGET="esp32c3"',
        "CONFIG_IDF_TARGET_ESP32C3=y",
        "CONFIG_IDF_FIRMWARE_CHIP_ID=0x0005",
        "",
        "#",
        "# Serial flasher config",
        "#",
        "CONFIG_ESPTOOLPY_FLASHSIZE_4MB=y",
        'CONFIG_ESPTOOLPY_FLASHSIZE="4MB"',
        "",
        "#",
        "# Partition Table",
        "#",
        "CONFIG_PARTITION_TABLE_CUSTOM=y",
        'CONFIG_PARTITION_TABLE_CUSTOM_FILENAME="partitions.csv"',
        "",
        "#",
        "# soilsense",
        "#",
        "CONFIG_SOILSENSE_SAMPLE_PERIOD_S=600",
        'CONFIG_SOILSENSE_MQTT_URI="mqtts://mqtt.example.net:8883"',
    ]
    if led:
        out += ["CONFIG_SOILSENSE_STATUS_LED=y", "CONFIG_SOILSENSE_STATUS_LED_GPIO=8"]
    out += [
        "# end of soilsense",
        "",
        "CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE=y",
        "CONFIG_ESP_TASK_WDT_TIMEOUT_S=10",
        "CONFIG_FREERTOS_HZ=1000",
        "CONFIG_LOG_DEFAULT_LEVEL_INFO=y",
        "CONFIG_MBEDTLS_CERTIFICATE_BUNDLE=y",
        "CONFIG_PM_ENABLE=y",
        "# Deprecated options for backward compatibility",
        "# End of deprecated options",
    ]
    return lines(*out)


_IDF_KCONFIG = lines(
    'menu "soilsense"',
    "",
    "    config SOILSENSE_SAMPLE_PERIOD_S",
    '        int "Seconds between samples"',
    "        default 600",
    "",
    "    config SOILSENSE_MQTT_URI",
    '        string "MQTT broker URI"',
    '        default "mqtts://mqtt.example.net:8883"',
    "",
    "endmenu",
)

_IDF_MAIN_CMAKE = lines(
    "idf_component_register(",
    '    SRCS "app_main.c" "sensor.c" "wifi.c" "mqtt_link.c" "ota.c" "power.c" "provisioning.c"',
    '    INCLUDE_DIRS "."',
    "    REQUIRES bme280 soil_adc esp_wifi mqtt app_update esp_https_ota nvs_flash esp_pm",
    '    EMBED_TXTFILES "${PROJECT_DIR}/certs/ca.pem"',
    ")",
)

_IDF_APP_MAIN = lines(
    "#include <stdio.h>",
    '#include "freertos/FreeRTOS.h"',
    '#include "freertos/task.h"',
    '#include "esp_log.h"',
    '#include "nvs_flash.h"',
    '#include "sensor.h"',
    '#include "wifi.h"',
    '#include "mqtt_link.h"',
    '#include "ota.h"',
    '#include "power.h"',
    "",
    'static const char *TAG = "soilsense";',
    "",
    "void app_main(void)",
    "{",
    "    ESP_ERROR_CHECK(nvs_flash_init());",
    "    ota_check_pending();",
    "    sensor_init();",
    "    wifi_start();",
    "    mqtt_link_start(ota_mark_valid);",
    "",
    "    for (;;) {",
    "        soil_reading_t r = sensor_read();",
    '        ESP_LOGI(TAG, "moisture=%.1f%% temp=%.1fC", r.moisture_pct, r.temp_c);',
    "        mqtt_link_publish_reading(&r);",
    "        power_sleep_until_next_sample();",
    "    }",
    "}",
)

_IDF_SENSOR = lines(
    '#include "sensor.h"',
    '#include "bme280.h"',
    '#include "soil_adc.h"',
    "",
    "static bme280_t s_bme;",
    "",
    "void sensor_init(void) {",
    "    bme280_init(&s_bme, I2C_NUM_0, BME280_ADDR_PRIMARY);",
    "    soil_adc_init(ADC_CHANNEL_2);",
    "}",
    "",
    "soil_reading_t sensor_read(void) {",
    "    soil_reading_t r = {0};",
    "    r.moisture_pct = soil_adc_read_pct();",
    "    bme280_read(&s_bme, &r.temp_c, &r.humidity_pct, &r.pressure_hpa);",
    "    return r;",
    "}",
)

# `clang-format -i --style=GNU`-ish (Allman braces, 2-space indent), ignoring the repo's
# .clang-format: a module the LED never touches.
_IDF_SENSOR_FORMATTED = lines(
    '#include "sensor.h"',
    "",
    '#include "bme280.h"',
    '#include "soil_adc.h"',
    "",
    "static bme280_t s_bme;",
    "",
    "void sensor_init(void)",
    "{",
    "  bme280_init(&s_bme, I2C_NUM_0, BME280_ADDR_PRIMARY);",
    "  soil_adc_init(ADC_CHANNEL_2);",
    "}",
    "",
    "soil_reading_t sensor_read(void)",
    "{",
    "  soil_reading_t r = {0};",
    "  r.moisture_pct = soil_adc_read_pct();",
    "  bme280_read(&s_bme, &r.temp_c, &r.humidity_pct, &r.pressure_hpa);",
    "  return r;",
    "}",
)

_IDF_BUILD_YML = lines(
    "name: build",
    "on: [push, pull_request]",
    "jobs:",
    "  build:",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: espressif/esp-idf-ci-action@v1",
    "        with:",
    "          esp_idf_version: v5.1.2",
    "          target: esp32c3",
    "          path: .",
)

_IDF_PYTEST = lines(
    "import pytest",
    "from pytest_embedded import Dut",
    "",
    "",
    "@pytest.mark.esp32c3",
    "def test_soilsense_unit_tests(dut: Dut) -> None:",
    "    dut.run_all_single_board_cases()",
)


def _idf_led_strip() -> dict[str, str]:
    """What the component manager unpacks into managed_components/ (not ignored here)."""
    base = "managed_components/espressif__led_strip"
    return {
        f"{base}/.component_hash": "28c6509a727ef74925b372ed404772aeedf11cce10b78c3f69b3c66799095e2d",  # noqa: E501
        f"{base}/CMakeLists.txt": lines(
            'set(srcs "src/led_strip_api.c")',
            'idf_component_register(SRCS ${srcs} INCLUDE_DIRS "include" REQUIRES "driver")',
        ),
        f"{base}/idf_component.yml": lines(
            "dependencies:",
            "  idf: '>=4.4'",
            "description: Driver for Addressable LED Strip (WS2812, etc)",
            "url: https://github.com/espressif/idf-extra-components/tree/master/led_strip",
            "version: 2.5.3",
        ),
        f"{base}/LICENSE": lines(
            "",
            "                                 Apache License",
            "                           Version 2.0, January 2004",
        ),
        f"{base}/README.md": lines(
            "# LED Strip Driver", "", "This driver is designed for addressable LEDs like WS2812."
        ),
        f"{base}/include/led_strip.h": lines(
            "/*",
            " * SPDX-FileCopyrightText: 2022-2023 Espressif Systems (Shanghai) CO LTD",
            " *",
            " * SPDX-License-Identifier: Apache-2.0",
            " */",
            "#pragma once",
            '#include "led_strip_rmt.h"',
        ),
        f"{base}/include/led_strip_rmt.h": lines(
            "/*",
            " * SPDX-FileCopyrightText: 2023 Espressif Systems (Shanghai) CO LTD",
            " */",
            "#pragma once",
        ),
        f"{base}/src/led_strip_api.c": lines(
            "/*",
            " * SPDX-FileCopyrightText: 2022 Espressif Systems (Shanghai) CO LTD",
            " *",
            " * SPDX-License-Identifier: Apache-2.0",
            " */",
            '#include "led_strip.h"',
        ),
        f"{base}/src/led_strip_rmt_dev.c": lines(
            "/*",
            " * SPDX-FileCopyrightText: 2022-2023 Espressif Systems (Shanghai) CO LTD",
            " */",
            '#include "led_strip_rmt_encoder.h"',
        ),
        f"{base}/src/led_strip_rmt_encoder.c": lines(
            "/*", " * SPDX-FileCopyrightText: 2022 Espressif Systems (Shanghai) CO LTD", " */"
        ),
    }


def _espidf_files() -> dict[str, str | bytes]:
    headers = {
        "sensor": [
            "typedef struct { float moisture_pct, temp_c, humidity_pct, pressure_hpa; } soil_reading_t;",  # noqa: E501
            "void sensor_init(void);",
            "soil_reading_t sensor_read(void);",
        ],
        "wifi": ["void wifi_start(void);", "bool wifi_is_connected(void);"],
        "mqtt_link": [
            '#include "sensor.h"',
            "typedef void (*mqtt_connected_cb_t)(void);",
            "void mqtt_link_start(mqtt_connected_cb_t on_connected);",
            "void mqtt_link_publish_reading(const soil_reading_t *r);",
        ],
        "ota": [
            "void ota_check_pending(void);",
            "void ota_mark_valid(void);",
            "esp_err_t ota_start(const char *url);",
        ],
        "power": ["void power_sleep_until_next_sample(void);"],
        "provisioning": ["void provisioning_start_softap(void);"],
    }
    files: dict[str, str | bytes] = {
        ".gitignore": lines("build/"),
        "CMakeLists.txt": lines(
            "cmake_minimum_required(VERSION 3.16)",
            "include($ENV{IDF_PATH}/tools/cmake/project.cmake)",
            "project(soilsense)",
        ),
        "main/CMakeLists.txt": _IDF_MAIN_CMAKE,
        "main/idf_component.yml": lines(
            "## IDF Component Manager Manifest File",
            "dependencies:",
            "  idf:",
            '    version: ">=5.1.0"',
        ),
        "main/Kconfig.projbuild": _IDF_KCONFIG,
        "main/app_main.c": _IDF_APP_MAIN,
        "main/sensor.c": _IDF_SENSOR,
        "main/wifi.c": lines(
            '#include "wifi.h"',
            '#include "esp_wifi.h"',
            "static bool s_up;",
            "bool wifi_is_connected(void) { return s_up; }",
        ),
        "main/mqtt_link.c": lines(
            '#include "mqtt_link.h"',
            '#include "mqtt_client.h"',
            "static esp_mqtt_client_handle_t s_client;",
        ),
        "main/ota.c": lines(
            '#include "ota.h"',
            '#include "esp_ota_ops.h"',
            '#include "esp_https_ota.h"',
            "",
            "void ota_check_pending(void) {",
            "    const esp_partition_t *running = esp_ota_get_running_partition();",
            "    esp_ota_img_states_t state;",
            "    esp_ota_get_state_partition(running, &state);",
            "}",
        ),
        "main/power.c": lines(
            '#include "power.h"',
            '#include "esp_sleep.h"',
            "void power_sleep_until_next_sample(void) {",
            "    esp_deep_sleep(CONFIG_SOILSENSE_SAMPLE_PERIOD_S * 1000000ULL);",
            "}",
        ),
        "main/provisioning.c": lines(
            '#include "provisioning.h"', '#include "wifi_provisioning/manager.h"'
        ),
        "main/config.h": lines("#pragma once", '#define SOILSENSE_FW_VERSION "1.3.0"'),
        "components/bme280/CMakeLists.txt": lines(
            'idf_component_register(SRCS "bme280.c" INCLUDE_DIRS "include" REQUIRES driver)'
        ),
        "components/bme280/bme280.c": lines(
            '#include "bme280.h"',
            "/* Bosch BME280 over I2C, compensation from the datasheet rev 1.6. */",
        ),
        "components/bme280/include/bme280.h": lines(
            "#pragma once",
            '#include "driver/i2c.h"',
            "#define BME280_ADDR_PRIMARY 0x76",
            "typedef struct { i2c_port_t port; uint8_t addr; } bme280_t;",
        ),
        "components/bme280/Kconfig": lines(
            'menu "BME280"',
            "    config BME280_I2C_FREQ_HZ",
            '        int "I2C clock"',
            "        default 400000",
            "endmenu",
        ),
        "components/soil_adc/CMakeLists.txt": lines(
            'idf_component_register(SRCS "soil_adc.c" INCLUDE_DIRS "include" REQUIRES esp_adc)'
        ),
        "components/soil_adc/soil_adc.c": lines(
            '#include "soil_adc.h"', '#include "esp_adc/adc_oneshot.h"'
        ),
        "components/soil_adc/include/soil_adc.h": lines(
            "#pragma once",
            '#include "hal/adc_types.h"',
            "void soil_adc_init(adc_channel_t ch);",
            "float soil_adc_read_pct(void);",
        ),
        "partitions.csv": lines(
            "# Name,   Type, SubType, Offset,   Size",
            "nvs,      data, nvs,     0x9000,   0x6000",
            "otadata,  data, ota,     0xf000,   0x2000",
            "phy_init, data, phy,     0x11000,  0x1000",
            "ota_0,    app,  ota_0,   0x20000,  0x1E0000",
            "ota_1,    app,  ota_1,   0x200000, 0x1E0000",
        ),
        "sdkconfig": _idf_sdkconfig(led=False),
        "sdkconfig.defaults": lines(
            "CONFIG_PARTITION_TABLE_CUSTOM=y",
            'CONFIG_PARTITION_TABLE_CUSTOM_FILENAME="partitions.csv"',
            "CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE=y",
            "CONFIG_PM_ENABLE=y",
        ),
        "sdkconfig.defaults.esp32c3": lines("CONFIG_ESPTOOLPY_FLASHSIZE_4MB=y"),
        "dependencies.lock": _idf_lock(led_strip=False),
        ".clang-format": lines(
            "BasedOnStyle: LLVM", "IndentWidth: 4", "BreakBeforeBraces: Linux", "ColumnLimit: 100"
        ),
        "certs/ca.pem": lines(
            "-----BEGIN CERTIFICATE-----",
            "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ",
            "-----END CERTIFICATE-----",
        ),
        "README.md": lines(
            "# soilsense",
            "",
            "ESP32-C3 soil moisture node: BME280 + capacitive probe, MQTT over TLS, OTA.",
            "",
            "`idf.py set-target esp32c3 build flash monitor`",
        ),
        "docs/wiring.md": lines(
            "# Wiring",
            "",
            "| Signal | GPIO |",
            "|---|---|",
            "| SDA | 4 |",
            "| SCL | 5 |",
            "| Probe | 2 (ADC1_CH2) |",
        ),
        "docs/mqtt-topics.md": lines(
            "# MQTT topics", "", "- `soilsense/<mac>/reading` — JSON, QoS 1"
        ),
        "docs/ota.md": lines("# OTA", "", "Publish the URL to `soilsense/<mac>/ota`."),
        ".github/workflows/build.yml": _IDF_BUILD_YML,
        "test/CMakeLists.txt": lines(
            "cmake_minimum_required(VERSION 3.16)",
            'set(EXTRA_COMPONENT_DIRS "../components")',
            "include($ENV{IDF_PATH}/tools/cmake/project.cmake)",
            "project(soilsense_test)",
        ),
        "test/main/CMakeLists.txt": lines(
            'idf_component_register(SRCS "test_main.c" "test_power.c" "test_soil_adc.c" INCLUDE_DIRS "." REQUIRES unity soil_adc)'  # noqa: E501
        ),
        "test/main/test_main.c": lines(
            '#include "unity.h"', "void app_main(void) { unity_run_menu(); }"
        ),
        "test/main/test_power.c": lines(
            '#include "unity.h"',
            'TEST_CASE("sleep period is ten minutes", "[power]") { TEST_ASSERT_EQUAL(600, CONFIG_SOILSENSE_SAMPLE_PERIOD_S); }',  # noqa: E501
        ),
        "test/main/test_soil_adc.c": lines(
            '#include "unity.h"',
            '#include "soil_adc.h"',
            'TEST_CASE("dry probe reads low", "[adc]") { }',
        ),
        "test/sdkconfig.defaults": lines("CONFIG_ESP_TASK_WDT_EN=n"),
        "test/pytest_soilsense.py": _IDF_PYTEST,
        "tools/flash.sh": lines("#!/bin/sh", "idf.py -p ${PORT:-/dev/ttyACM0} flash monitor"),
        "version.txt": "1.3.0\n",
    }
    for name, decls in headers.items():
        files[f"main/{name}.h"] = lines(
            "#pragma once", "#include <stdbool.h>", '#include "esp_err.h"', *decls
        )
    return files


def _espidf(s: Scene) -> None:
    s.commit("soilsense 1.3.0", _espidf_files(), days_ago=75)
    s.intent(
        "OTA rollback: mark the new image valid once MQTT connects, roll back to the previous "
        "slot if it does not within 60 s",
        {"main/ota.c": "the rollback logic", "main/app_main.c": "boot sequence"},
        hours_ago=24 * 41,
    )
    # A checkpoint from that session, long since committed over.
    s.checkpoint("before OTA rollback")
    s.commit(
        "ota: mark valid after MQTT connects; roll back after 60 s",
        {
            "main/ota.c": _read(s, "main/ota.c")
            + lines(
                "",
                "void ota_mark_valid(void) {",
                "    esp_ota_mark_app_valid_cancel_rollback();",
                "}",
            ),
            "docs/ota.md": _read(s, "docs/ota.md")
            + "\nA new image that cannot reach MQTT in 60 s rolls back.\n",
        },
        days_ago=39,
    )
    s.commit(
        "docs: mqtt topics",
        {
            "docs/mqtt-topics.md": _read(s, "docs/mqtt-topics.md")
            + "- `soilsense/<mac>/ota` — URL, QoS 1\n"
        },
        days_ago=10,
    )
    # Memory still says "OTA rollback" (shipped five weeks ago). Today, in the chat: "add a
    # status LED — the WS2812 on GPIO8 — blue while connecting, green when MQTT is up, red
    # on errors; make the GPIO configurable".
    led = _idf_led_strip()
    s.agent(
        {
            "main/status_led.h": lines(
                "#pragma once",
                "",
                "typedef enum { STATUS_CONNECTING, STATUS_ONLINE, STATUS_ERROR } status_t;",
                "",
                "void status_led_init(void);",
                "void status_led_set(status_t s);",
            ),
            "main/status_led.c": lines(
                '#include "status_led.h"',
                '#include "led_strip.h"',
                '#include "sdkconfig.h"',
                "",
                "static led_strip_handle_t s_strip;",
                "",
                "void status_led_init(void)",
                "{",
                "#if CONFIG_SOILSENSE_STATUS_LED",
                "    led_strip_config_t cfg = { .strip_gpio_num = CONFIG_SOILSENSE_STATUS_LED_GPIO, .max_leds = 1 };",  # noqa: E501
                "    led_strip_rmt_config_t rmt = { .resolution_hz = 10 * 1000 * 1000 };",
                "    ESP_ERROR_CHECK(led_strip_new_rmt_device(&cfg, &rmt, &s_strip));",
                "#endif",
                "}",
                "",
                "void status_led_set(status_t s)",
                "{",
                "    if (!s_strip) return;",
                "    static const uint8_t rgb[][3] = { {0, 0, 32}, {0, 32, 0}, {32, 0, 0} };",
                "    led_strip_set_pixel(s_strip, 0, rgb[s][0], rgb[s][1], rgb[s][2]);",
                "    led_strip_refresh(s_strip);",
                "}",
            ),
            "main/app_main.c": _IDF_APP_MAIN.replace(
                '#include "power.h"\n', '#include "power.h"\n#include "status_led.h"\n'
            )
            .replace(
                "    ota_check_pending();\n",
                "    status_led_init();\n    status_led_set(STATUS_CONNECTING);\n    ota_check_pending();\n",  # noqa: E501
            )
            .replace(
                "        mqtt_link_publish_reading(&r);\n",
                "        mqtt_link_publish_reading(&r);\n"
                "        status_led_set(wifi_is_connected() ? STATUS_ONLINE : STATUS_ERROR);\n",
            ),
            "main/CMakeLists.txt": _IDF_MAIN_CMAKE.replace(
                '"provisioning.c"', '"provisioning.c" "status_led.c"'
            ),
            "main/Kconfig.projbuild": _IDF_KCONFIG.replace(
                "endmenu\n",
                "    config SOILSENSE_STATUS_LED\n"
                '        bool "WS2812 status LED"\n'
                "        default y\n"
                "\n"
                "    config SOILSENSE_STATUS_LED_GPIO\n"
                '        int "Status LED GPIO"\n'
                "        depends on SOILSENSE_STATUS_LED\n"
                "        default 8\n"
                "\n"
                "endmenu\n",
            ),
            "main/idf_component.yml": lines(
                "## IDF Component Manager Manifest File",
                "dependencies:",
                "  espressif/led_strip: ^2.5.3",
                "  idf:",
                '    version: ">=5.1.0"',
            ),
            # `idf.py build`: the component manager's lock and download, the regenerated
            # sdkconfig (new Kconfig symbols) and the backup of the old one.
            "dependencies.lock": _idf_lock(led_strip=True),
            **led,
            "sdkconfig": _idf_sdkconfig(led=True),
            "sdkconfig.old": _idf_sdkconfig(led=False),
            # Reformatted "while reading how sensors are initialised", in a style that is
            # not the repository's: a module the LED never touches.
            "main/sensor.c": _IDF_SENSOR_FORMATTED,
            ".github/workflows/build.yml": _IDF_BUILD_YML.replace("v5.1.2", "v5.2.1"),
        },
        # "pytest-embedded finds it at the root": moved, contents untouched.
        rename={"test/pytest_soilsense.py": "pytest_soilsense.py"},
    )
    _staged(s, "test/pytest_soilsense.py", "pytest_soilsense.py")
    # The stale intent says nothing of LEDs; the chat request is the task.
    s.fine(
        "main/status_led.h",
        "main/status_led.c",
        "main/app_main.c",
        "main/CMakeLists.txt",
        "main/Kconfig.projbuild",
        "main/idf_component.yml",
        # Written by the component manager, but it moved for the led_strip dependency.
        "dependencies.lock",
    )
    s.drift(
        "main/sensor.c",
        ".github/workflows/build.yml",
        "test/pytest_soilsense.py",
        "pytest_soilsense.py",
    )
    # sdkconfig is committed, but idf.py regenerates it from Kconfig and the defaults: the
    # two new lines come from the in-scope Kconfig options. Debatable (teams do edit it
    # through menuconfig); machine-written here.
    s.excluded("sdkconfig", "sdkconfig.old", *led)
    s.safe_commit()
    s.note = (
        "stale intent (OTA rollback, committed five weeks ago); its checkpoint predates two "
        "commits, so the commit is safe; a git mv without edits drifts, both sides"
    )


# -- 9. Kotlin Multiplatform: a deleted test and a neighbouring screen -----------------------------

_KMP_PKG = "shared/src/commonMain/kotlin/dev/trailhead/shared"
_KMP_TEST = "shared/src/commonTest/kotlin/dev/trailhead/shared"


def _kmp_versions(sqldelight: bool) -> str:
    out = [
        "[versions]",
        'agp = "8.3.2"',
        'kotlin = "2.0.0"',
        'ktor = "2.3.11"',
        'coroutines = "1.8.1"',
        'serialization = "1.6.3"',
        'compose-bom = "2024.05.00"',
        'activity-compose = "1.9.0"',
    ]
    if sqldelight:
        out.append('sqldelight = "2.0.2"')
    out += [
        "",
        "[libraries]",
        'ktor-client-core = { module = "io.ktor:ktor-client-core", version.ref = "ktor" }',
        'ktor-client-okhttp = { module = "io.ktor:ktor-client-okhttp", version.ref = "ktor" }',
        'ktor-client-darwin = { module = "io.ktor:ktor-client-darwin", version.ref = "ktor" }',
        'ktor-client-js = { module = "io.ktor:ktor-client-js", version.ref = "ktor" }',
        'ktor-client-content-negotiation = { module = "io.ktor:ktor-client-content-negotiation", version.ref = "ktor" }',  # noqa: E501
        'ktor-serialization-json = { module = "io.ktor:ktor-serialization-kotlinx-json", version.ref = "ktor" }',  # noqa: E501
        'ktor-client-mock = { module = "io.ktor:ktor-client-mock", version.ref = "ktor" }',
        'coroutines-core = { module = "org.jetbrains.kotlinx:kotlinx-coroutines-core", version.ref = "coroutines" }',  # noqa: E501
        'coroutines-test = { module = "org.jetbrains.kotlinx:kotlinx-coroutines-test", version.ref = "coroutines" }',  # noqa: E501
        'compose-bom = { module = "androidx.compose:compose-bom", version.ref = "compose-bom" }',
        'activity-compose = { module = "androidx.activity:activity-compose", version.ref = "activity-compose" }',  # noqa: E501
    ]
    if sqldelight:
        out += [
            'sqldelight-android = { module = "app.cash.sqldelight:android-driver", version.ref = "sqldelight" }',  # noqa: E501
            'sqldelight-native = { module = "app.cash.sqldelight:native-driver", version.ref = "sqldelight" }',  # noqa: E501
            'sqldelight-webworker = { module = "app.cash.sqldelight:web-worker-driver", version.ref = "sqldelight" }',  # noqa: E501
            'sqldelight-sqlite = { module = "app.cash.sqldelight:sqlite-driver", version.ref = "sqldelight" }',  # noqa: E501
            'sqldelight-coroutines = { module = "app.cash.sqldelight:coroutines-extensions", version.ref = "sqldelight" }',  # noqa: E501
        ]
    out += [
        "",
        "[plugins]",
        'android-application = { id = "com.android.application", version.ref = "agp" }',
        'android-library = { id = "com.android.library", version.ref = "agp" }',
        'kotlin-multiplatform = { id = "org.jetbrains.kotlin.multiplatform", version.ref = "kotlin" }',  # noqa: E501
        'kotlin-serialization = { id = "org.jetbrains.kotlin.plugin.serialization", version.ref = "kotlin" }',  # noqa: E501
        'compose-compiler = { id = "org.jetbrains.kotlin.plugin.compose", version.ref = "kotlin" }',
    ]
    if sqldelight:
        out.append('sqldelight = { id = "app.cash.sqldelight", version.ref = "sqldelight" }')
    return lines(*out)


def _kmp_shared_build(sqldelight: bool) -> str:
    def extra(*items: str) -> list[str]:
        return list(items) if sqldelight else []

    return lines(
        "plugins {",
        "    alias(libs.plugins.kotlin.multiplatform)",
        "    alias(libs.plugins.kotlin.serialization)",
        "    alias(libs.plugins.android.library)",
        *extra("    alias(libs.plugins.sqldelight)"),
        "}",
        "",
        "kotlin {",
        "    androidTarget()",
        "    iosX64(); iosArm64(); iosSimulatorArm64()",
        "    js(IR) { browser(); binaries.executable() }",
        "",
        "    sourceSets {",
        "        commonMain.dependencies {",
        "            implementation(libs.ktor.client.core)",
        "            implementation(libs.ktor.client.content.negotiation)",
        "            implementation(libs.ktor.serialization.json)",
        "            implementation(libs.coroutines.core)",
        *extra("            implementation(libs.sqldelight.coroutines)"),
        "        }",
        "        commonTest.dependencies {",
        '            implementation(kotlin("test"))',
        "            implementation(libs.ktor.client.mock)",
        "            implementation(libs.coroutines.test)",
        "        }",
        "        androidMain.dependencies {",
        "            implementation(libs.ktor.client.okhttp)",
        *extra("            implementation(libs.sqldelight.android)"),
        "        }",
        "        iosMain.dependencies {",
        "            implementation(libs.ktor.client.darwin)",
        *extra("            implementation(libs.sqldelight.native)"),
        "        }",
        "        jsMain.dependencies {",
        "            implementation(libs.ktor.client.js)",
        *extra(
            "            implementation(libs.sqldelight.webworker)",
            '            implementation(npm("@cashapp/sqldelight-sqljs-worker", "2.0.2"))',
            '            implementation(npm("sql.js", "1.8.0"))',
            '            implementation(devNpm("copy-webpack-plugin", "9.1.0"))',
        ),
        "        }",
        "    }",
        "}",
        "",
        "android {",
        '    namespace = "dev.trailhead.shared"',
        "    compileSdk = 34",
        "    defaultConfig { minSdk = 26 }",
        "}",
        *extra(
            "",
            "sqldelight {",
            "    databases {",
            '        create("TrailDatabase") {',
            '            packageName.set("dev.trailhead.db")',
            "            generateAsync.set(true)",
            "        }",
            "    }",
            "}",
        ),
    )


def _kmp_yarn_lock(sqldelight: bool) -> str:
    pkgs = {
        "ws": ("8.5.0", "ws@8.5.0"),
        "format-util": ("1.0.5", "format-util@^1.0.5"),
        "source-map-support": ("0.5.21", "source-map-support@0.5.21"),
        "webpack": ("5.91.0", "webpack@5.91.0"),
        "webpack-cli": ("5.1.4", "webpack-cli@5.1.4"),
        "karma": ("6.4.3", "karma@6.4.3"),
        "mocha": ("10.4.0", "mocha@10.4.0"),
    }
    if sqldelight:
        pkgs.update(
            {
                "@cashapp/sqldelight-sqljs-worker": (
                    "2.0.2",
                    '"@cashapp/sqldelight-sqljs-worker@2.0.2"',
                ),
                "sql.js": ("1.8.0", "sql.js@1.8.0"),
                "copy-webpack-plugin": ("9.1.0", "copy-webpack-plugin@9.1.0"),
                "glob-parent": ("6.0.2", "glob-parent@^6.0.1"),
                "schema-utils": ("3.3.0", "schema-utils@^3.1.1"),
            }
        )
    out = [
        "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.",
        "# yarn lockfile v1",
        "",
        "",
    ]
    for name, (version, spec) in sorted(pkgs.items()):
        tail = name.rsplit("/", 1)[-1]
        out += [
            f"{spec}:",
            f'  version "{version}"',
            f'  resolved "https://registry.yarnpkg.com/{name}/-/{tail}-{version}.tgz#{_hex(name, 40)}"',  # noqa: E501
            f"  integrity sha512-{_hex(name + version, 86)}==",
            "",
        ]
    return lines(*out)


_KMP_REPO_OLD = lines(
    "package dev.trailhead.shared",
    "",
    "import dev.trailhead.shared.model.Trail",
    "import dev.trailhead.shared.network.TrailApi",
    "",
    "class TrailRepository(private val api: TrailApi) {",
    "    suspend fun trails(region: String): Result<List<Trail>> =",
    "        runCatching { api.trails(region) }",
    "",
    "    suspend fun trail(id: String): Result<Trail> =",
    "        runCatching { api.trail(id) }",
    "}",
)

_KMP_REPO_NEW = lines(
    "package dev.trailhead.shared",
    "",
    "import dev.trailhead.db.TrailDatabase",
    "import dev.trailhead.shared.model.Trail",
    "import dev.trailhead.shared.network.TrailApi",
    "import io.ktor.utils.io.errors.IOException",
    "",
    "/** Network first; on a connection failure, whatever was cached for the region. */",
    "class TrailRepository(private val api: TrailApi, private val db: TrailDatabase) {",
    "    suspend fun trails(region: String): Result<List<Trail>> =",
    "        try {",
    "            api.trails(region).also { cache(region, it) }.let { Result.success(it) }",
    "        } catch (e: IOException) {",
    "            val cached = db.trailQueries.byRegion(region).awaitAsList().map { it.toTrail() }",
    "            if (cached.isEmpty()) Result.failure(e) else Result.success(cached)",
    "        }",
    "",
    "    suspend fun trail(id: String): Result<Trail> =",
    "        runCatching { api.trail(id) }",
    "",
    "    private suspend fun cache(region: String, trails: List<Trail>) {",
    "        db.transaction {",
    "            db.trailQueries.deleteRegion(region)",
    "            trails.forEach { db.trailQueries.upsert(it.id, region, it.name, it.lengthKm, it.difficulty.name) }",  # noqa: E501
    "        }",
    "    }",
    "}",
)

_KMP_LIST_SCREEN = lines(
    "package dev.trailhead.android",
    "",
    "import androidx.compose.foundation.lazy.LazyColumn",
    "import androidx.compose.foundation.lazy.items",
    "import androidx.compose.material3.ListItem",
    "import androidx.compose.material3.Text",
    "import androidx.compose.runtime.Composable",
    "import dev.trailhead.shared.model.Trail",
    "",
    "@Composable",
    "fun TrailListScreen(trails: List<Trail>, onOpen: (Trail) -> Unit) {",
    "    LazyColumn {",
    "        items(trails) { t ->",
    '            ListItem(headlineContent = { Text(t.name) }, supportingContent = { Text("${t.lengthKm} km") })',  # noqa: E501
    "        }",
    "    }",
    "}",
)


def _kmp_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # From the Kotlin 1.9 wizard; Kotlin 2.0's .kotlin/ folder came later.
        ".gitignore": lines(
            "*.iml",
            ".gradle",
            "**/build/",
            "xcuserdata",
            "!src/**/build/",
            "local.properties",
            ".idea",
            ".DS_Store",
            "captures",
            ".externalNativeBuild",
            ".cxx",
            "*.xcodeproj/*",
            "!*.xcodeproj/project.pbxproj",
        ),
        "settings.gradle.kts": lines(
            'rootProject.name = "Trailhead"',
            "pluginManagement { repositories { google(); gradlePluginPortal(); mavenCentral() } }",
            "dependencyResolutionManagement { repositories { google(); mavenCentral() } }",
            'include(":androidApp", ":shared", ":webApp")',
        ),
        "build.gradle.kts": lines(
            "plugins {",
            "    alias(libs.plugins.android.application) apply false",
            "    alias(libs.plugins.android.library) apply false",
            "    alias(libs.plugins.kotlin.multiplatform) apply false",
            "}",
        ),
        "gradle.properties": lines(
            "org.gradle.jvmargs=-Xmx4g",
            "kotlin.code.style=official",
            "android.useAndroidX=true",
            "kotlin.mpp.androidSourceSetLayoutVersion=2",
        ),
        "gradle/libs.versions.toml": _kmp_versions(sqldelight=False),
        "gradle/wrapper/gradle-wrapper.properties": lines(
            "distributionBase=GRADLE_USER_HOME",
            "distributionPath=wrapper/dists",
            "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.7-bin.zip",
            "networkTimeout=10000",
            "validateDistributionUrl=true",
            "zipStoreBase=GRADLE_USER_HOME",
            "zipStorePath=wrapper/dists",
        ),
        "gradle/wrapper/gradle-wrapper.jar": _blob(ZIP, "gradle-wrapper", 200),
        "gradlew": lines(
            "#!/bin/sh",
            "",
            "#",
            "# Copyright © 2015-2021 the original authors.",
            "#",
            "# Gradle start up script for POSIX generated by Gradle.",
        ),
        "gradlew.bat": lines(
            "@rem",
            "@rem Copyright 2015 the original author or authors.",
            "@rem",
            '@if "%DEBUG%"=="" @echo off',
        ),
        "README.md": lines(
            "# Trailhead", "", "Hiking trails on Android, iOS and the web, one shared Kotlin core."
        ),
        ".github/workflows/ci.yml": lines(
            "name: CI",
            "on: [push]",
            "jobs:",
            "  test:",
            "    runs-on: macos-14",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: actions/setup-java@v4",
            "        with: { distribution: temurin, java-version: 17 }",
            "      - run: ./gradlew :shared:allTests",
        ),
        "shared/build.gradle.kts": _kmp_shared_build(sqldelight=False),
        f"{_KMP_PKG}/TrailRepository.kt": _KMP_REPO_OLD,
        f"{_KMP_PKG}/Platform.kt": lines(
            "package dev.trailhead.shared", "", "expect fun platformName(): String"
        ),
        f"{_KMP_PKG}/model/Trail.kt": lines(
            "package dev.trailhead.shared.model",
            "",
            "import kotlinx.serialization.Serializable",
            "",
            "@Serializable",
            "data class Trail(val id: String, val name: String, val lengthKm: Double, val difficulty: Difficulty, val waypoints: List<Waypoint> = emptyList())",  # noqa: E501
        ),
        f"{_KMP_PKG}/model/Waypoint.kt": lines(
            "package dev.trailhead.shared.model",
            "",
            "import kotlinx.serialization.Serializable",
            "",
            "@Serializable",
            "data class Waypoint(val lat: Double, val lon: Double, val elevationM: Double)",
        ),
        f"{_KMP_PKG}/model/Difficulty.kt": lines(
            "package dev.trailhead.shared.model",
            "",
            "enum class Difficulty { EASY, MODERATE, HARD }",
        ),
        f"{_KMP_PKG}/network/TrailApi.kt": lines(
            "package dev.trailhead.shared.network",
            "",
            "import dev.trailhead.shared.model.Trail",
            "import io.ktor.client.HttpClient",
            "import io.ktor.client.call.body",
            "import io.ktor.client.request.get",
            "",
            "class TrailApi(private val client: HttpClient) {",
            '    suspend fun trails(region: String): List<Trail> = client.get("trails?region=$region").body()',  # noqa: E501
            '    suspend fun trail(id: String): Trail = client.get("trails/$id").body()',
            "}",
        ),
        f"{_KMP_PKG}/network/HttpClientFactory.kt": lines(
            "package dev.trailhead.shared.network",
            "",
            "import io.ktor.client.HttpClient",
            "",
            "expect fun httpClient(): HttpClient",
        ),
        f"{_KMP_PKG}/geo/GeoMath.kt": lines(
            "package dev.trailhead.shared.geo",
            "",
            "import kotlin.math.*",
            "",
            "fun haversineKm(lat1: Double, lon1: Double, lat2: Double, lon2: Double): Double {",
            "    val r = 6371.0",
            "    val dLat = (lat2 - lat1) * PI / 180; val dLon = (lon2 - lon1) * PI / 180",
            "    val a = sin(dLat / 2).pow(2) + cos(lat1 * PI / 180) * cos(lat2 * PI / 180) * sin(dLon / 2).pow(2)",  # noqa: E501
            "    return 2 * r * asin(sqrt(a))",
            "}",
        ),
        f"{_KMP_PKG}/geo/Elevation.kt": lines(
            "package dev.trailhead.shared.geo",
            "",
            "import dev.trailhead.shared.model.Waypoint",
            "",
            "fun ascentM(points: List<Waypoint>): Double = points.zipWithNext { a, b -> maxOf(0.0, b.elevationM - a.elevationM) }.sum()",  # noqa: E501
        ),
        f"{_KMP_PKG}/util/Formatting.kt": lines(
            "package dev.trailhead.shared.util",
            "",
            'fun formatKm(km: Double): String = "${(km * 10).toInt() / 10.0} km"',
        ),
        f"{_KMP_TEST}/TrailRepositoryTest.kt": lines(
            "package dev.trailhead.shared",
            "",
            "import kotlinx.coroutines.test.runTest",
            "import kotlin.test.Test",
            "import kotlin.test.assertTrue",
            "",
            "class TrailRepositoryTest {",
            "    @Test",
            "    fun returnsTrailsFromApi() = runTest {",
            "        val repo = TrailRepository(FakeTrailApi.ok())",
            '        assertTrue(repo.trails("alps").isSuccess)',
            "    }",
            "}",
        ),
        f"{_KMP_TEST}/GeoMathTest.kt": lines(
            "package dev.trailhead.shared",
            "",
            "import dev.trailhead.shared.geo.haversineKm",
            "import kotlin.test.Test",
            "import kotlin.test.assertEquals",
            "",
            "class GeoMathTest {",
            "    @Test",
            "    fun zermattToMatterhornSummit() {",
            "        assertEquals(7.87, haversineKm(46.0207, 7.7491, 45.9763, 7.6586), 0.01)",
            "    }",
            "}",
        ),
        f"{_KMP_TEST}/ElevationTest.kt": lines(
            "package dev.trailhead.shared",
            "",
            "import kotlin.test.Test",
            "",
            "class ElevationTest {",
            "    @Test fun flatTrailHasNoAscent() {}",
            "}",
        ),
        f"{_KMP_TEST}/FakeTrailApi.kt": lines(
            "package dev.trailhead.shared",
            "",
            "import io.ktor.client.engine.mock.MockEngine",
            "",
            "object FakeTrailApi {",
            '    fun ok() = TODO("MockEngine returning two alpine trails")',
            "}",
        ),
        "androidApp/build.gradle.kts": lines(
            "plugins { alias(libs.plugins.android.application); alias(libs.plugins.kotlin.multiplatform); alias(libs.plugins.compose.compiler) }",  # noqa: E501
            'android { namespace = "dev.trailhead.android"; compileSdk = 34 }',
        ),
        "androidApp/src/main/AndroidManifest.xml": lines(
            '<?xml version="1.0" encoding="utf-8"?>',
            '<manifest xmlns:android="http://schemas.android.com/apk/res/android">',
            '    <uses-permission android:name="android.permission.INTERNET" />',
            '    <application android:label="@string/app_name" android:icon="@mipmap/ic_launcher">',
            '        <activity android:name=".MainActivity" android:exported="true" />',
            "    </application>",
            "</manifest>",
        ),
        "androidApp/src/main/kotlin/dev/trailhead/android/MainActivity.kt": lines(
            "package dev.trailhead.android",
            "",
            "import android.os.Bundle",
            "import androidx.activity.ComponentActivity",
            "import androidx.activity.compose.setContent",
            "",
            "class MainActivity : ComponentActivity() {",
            "    override fun onCreate(savedInstanceState: Bundle?) {",
            "        super.onCreate(savedInstanceState)",
            "        setContent { TrailheadTheme { TrailNavHost() } }",
            "    }",
            "}",
        ),
        "androidApp/src/main/kotlin/dev/trailhead/android/TrailListScreen.kt": _KMP_LIST_SCREEN,
        "androidApp/src/main/kotlin/dev/trailhead/android/TrailDetailScreen.kt": lines(
            "package dev.trailhead.android",
            "",
            "import androidx.compose.runtime.Composable",
            "import dev.trailhead.shared.model.Trail",
            "",
            "@Composable",
            "fun TrailDetailScreen(trail: Trail) {}",
        ),
        "androidApp/src/main/kotlin/dev/trailhead/android/TrailViewModel.kt": lines(
            "package dev.trailhead.android",
            "",
            "import androidx.lifecycle.ViewModel",
            "",
            "class TrailViewModel : ViewModel()",
        ),
        "androidApp/src/main/kotlin/dev/trailhead/android/theme/Theme.kt": lines(
            "package dev.trailhead.android",
            "",
            "import androidx.compose.runtime.Composable",
            "",
            "@Composable",
            "fun TrailheadTheme(content: @Composable () -> Unit) = content()",
        ),
        "androidApp/src/main/res/values/strings.xml": lines(
            "<resources>", '    <string name="app_name">Trailhead</string>', "</resources>"
        ),
        "androidApp/src/main/res/mipmap-hdpi/ic_launcher.png": _blob(PNG, "ic_launcher", 160),
        "iosApp/iosApp/iOSApp.swift": lines(
            "import SwiftUI",
            "",
            "@main",
            "struct iOSApp: App {",
            "    var body: some Scene { WindowGroup { ContentView() } }",
            "}",
        ),
        "iosApp/iosApp/ContentView.swift": lines(
            "import SwiftUI",
            "import shared",
            "",
            "struct ContentView: View {",
            "    var body: some View { TrailListView() }",
            "}",
        ),
        "iosApp/iosApp/TrailListView.swift": lines(
            "import SwiftUI",
            "import shared",
            "",
            "struct TrailListView: View {",
            '    var body: some View { Text("Trails") }',
            "}",
        ),
        "iosApp/iosApp/Info.plist": lines(
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<plist version="1.0"><dict><key>CFBundleName</key><string>Trailhead</string></dict></plist>',  # noqa: E501
        ),
        "iosApp/iosApp.xcodeproj/project.pbxproj": lines(
            "// !$*UTF8*$!", "{", "\tarchiveVersion = 1;", "\tobjectVersion = 56;", "}"
        ),
        "webApp/build.gradle.kts": lines(
            "plugins { alias(libs.plugins.kotlin.multiplatform) }",
            "kotlin { js(IR) { browser(); binaries.executable() } }",
        ),
        "webApp/src/jsMain/kotlin/Main.kt": lines(
            "import kotlinx.browser.document",
            "",
            "fun main() {",
            '    document.getElementById("root")?.textContent = "Trailhead"',
            "}",
        ),
        "webApp/src/jsMain/resources/index.html": lines(
            "<!doctype html>",
            '<html><body><div id="root"></div><script src="webApp.js"></script></body></html>',
        ),
        "kotlin-js-store/yarn.lock": _kmp_yarn_lock(sqldelight=False),
    }
    for target, client in (("android", "OkHttp"), ("ios", "Darwin"), ("js", "Js")):
        base = f"shared/src/{target}Main/kotlin/dev/trailhead/shared"
        files[f"{base}/Platform.{target}.kt"] = lines(
            "package dev.trailhead.shared", "", f'actual fun platformName(): String = "{target}"'
        )
        files[f"{base}/network/HttpClientFactory.{target}.kt"] = lines(
            "package dev.trailhead.shared.network",
            "",
            f"import io.ktor.client.engine.{client.lower()}.{client}",
            "import io.ktor.client.HttpClient",
            "",
            f"actual fun httpClient(): HttpClient = HttpClient({client})",
        )
    return files


def _kmp(s: Scene) -> None:
    s.commit("Trailhead 0.9", _kmp_files(), days_ago=85)
    s.commit(
        "Kotlin 2.0",
        {"README.md": _read(s, "README.md") + "\nBuilt with Kotlin 2.0 and the K2 compiler.\n"},
        days_ago=20,
    )
    s.intent(
        "Offline cache for trails: store fetched trails in SQLDelight on Android, iOS and the "
        "web, serve the cached ones when the network fails, and test the fallback",
        {
            f"{_KMP_PKG}/TrailRepository.kt": "network-first with cache fallback",
            "shared/build.gradle.kts": "SQLDelight plugin and drivers",
        },
        hours_ago=3,
    )
    before = s.checkpoint("before the offline cache")
    drivers = {
        "android": (
            "app.cash.sqldelight.driver.android.AndroidSqliteDriver",
            'AndroidSqliteDriver(TrailDatabase.Schema.synchronous(), appContext, "trails.db")',
        ),
        "ios": (
            "app.cash.sqldelight.driver.native.NativeSqliteDriver",
            'NativeSqliteDriver(TrailDatabase.Schema.synchronous(), "trails.db")',
        ),
        "js": (
            "app.cash.sqldelight.driver.worker.WebWorkerDriver",
            'WebWorkerDriver(Worker(js("""new URL("@cashapp/sqldelight-sqljs-worker/sqljs.worker.js", import.meta.url)""")))',  # noqa: E501
        ),
    }
    platform_edits: dict[str, str | bytes] = {}
    for target, (imp, ctor) in drivers.items():
        path = f"shared/src/{target}Main/kotlin/dev/trailhead/shared/Platform.{target}.kt"
        platform_edits[path] = lines(
            "package dev.trailhead.shared",
            "",
            "import app.cash.sqldelight.db.SqlDriver",
            f"import {imp}",
            "import dev.trailhead.db.TrailDatabase",
            "",
            f'actual fun platformName(): String = "{target}"',
            "",
            f"actual fun createDriver(): SqlDriver = {ctor}",
        )
    s.agent(
        {
            "gradle/libs.versions.toml": _kmp_versions(sqldelight=True),
            "shared/build.gradle.kts": _kmp_shared_build(sqldelight=True),
            "shared/src/commonMain/sqldelight/dev/trailhead/db/Trail.sq": lines(
                "CREATE TABLE trail (",
                "    id TEXT NOT NULL PRIMARY KEY,",
                "    region TEXT NOT NULL,",
                "    name TEXT NOT NULL,",
                "    length_km REAL NOT NULL,",
                "    difficulty TEXT NOT NULL",
                ");",
                "",
                "CREATE INDEX trail_region ON trail(region);",
                "",
                "byRegion:",
                "SELECT * FROM trail WHERE region = ? ORDER BY name;",
                "",
                "upsert:",
                "INSERT OR REPLACE INTO trail VALUES (?, ?, ?, ?, ?);",
                "",
                "deleteRegion:",
                "DELETE FROM trail WHERE region = ?;",
            ),
            f"{_KMP_PKG}/TrailRepository.kt": _KMP_REPO_NEW,
            f"{_KMP_PKG}/Platform.kt": lines(
                "package dev.trailhead.shared",
                "",
                "import app.cash.sqldelight.db.SqlDriver",
                "",
                "expect fun platformName(): String",
                "",
                "expect fun createDriver(): SqlDriver",
            ),
            **platform_edits,
        },
        # "Flaky on JS (float formatting)": deleted rather than fixed.
        delete=[f"{_KMP_TEST}/GeoMathTest.kt"],
    )
    s.checkpoint("repository falls back to the cache")
    kotlin_dir: dict[str, str | bytes] = {
        ".kotlin/sessions/kotlin-compiler-4417823650947287543.salive": "",
        ".kotlin/errors/errors-1718101234567.log": lines(
            "kotlin version: 2.0.0",
            "error message: The daemon has terminated unexpectedly on startup attempt #1 with error code: 0. The daemon process output:",  # noqa: E501
            "    1. Kotlin compile daemon is ready",
        ),
        ".kotlin/metadata/kotlinTransformedMetadataLibraries/org.jetbrains.kotlinx-kotlinx-coroutines-core-1.8.1-commonMain-"
        + _hex("coroutines", 8)
        + ".klib": _blob(ZIP, "klib", 120),
    }
    s.agent(
        {
            f"{_KMP_TEST}/TrailRepositoryTest.kt": lines(
                "package dev.trailhead.shared",
                "",
                "import app.cash.sqldelight.driver.jdbc.sqlite.JdbcSqliteDriver",
                "import dev.trailhead.db.TrailDatabase",
                "import kotlinx.coroutines.test.runTest",
                "import kotlin.test.Test",
                "import kotlin.test.assertEquals",
                "import kotlin.test.assertTrue",
                "",
                "class TrailRepositoryTest {",
                "    private fun db() = TrailDatabase(createTestDriver())",
                "",
                "    @Test",
                "    fun returnsTrailsFromApi() = runTest {",
                "        val repo = TrailRepository(FakeTrailApi.ok(), db())",
                '        assertTrue(repo.trails("alps").isSuccess)',
                "    }",
                "",
                "    @Test",
                "    fun fallsBackToCacheWhenOffline() = runTest {",
                "        val db = db()",
                '        TrailRepository(FakeTrailApi.ok(), db).trails("alps")',
                '        val offline = TrailRepository(FakeTrailApi.offline(), db).trails("alps")',
                "        assertEquals(2, offline.getOrThrow().size)",
                "    }",
                "}",
            ),
            # `./gradlew kotlinUpgradeYarnLock` after the npm dependencies of the web driver.
            "kotlin-js-store/yarn.lock": _kmp_yarn_lock(sqldelight=True),
            # "Show when the list came from the cache" — on a screen outside the shared
            # module, with a new, unasked pull-to-refresh.
            "androidApp/src/main/kotlin/dev/trailhead/android/TrailListScreen.kt": _KMP_LIST_SCREEN.replace(  # noqa: E501
                "import androidx.compose.material3.ListItem\n",
                "import androidx.compose.material3.ListItem\n"
                "import androidx.compose.material3.pulltorefresh.PullToRefreshBox\n",
            )
            .replace(
                "fun TrailListScreen(trails: List<Trail>, onOpen: (Trail) -> Unit) {\n    LazyColumn {\n",  # noqa: E501
                "fun TrailListScreen(trails: List<Trail>, refreshing: Boolean, onRefresh: () -> Unit, onOpen: (Trail) -> Unit) {\n"  # noqa: E501
                "    PullToRefreshBox(isRefreshing = refreshing, onRefresh = onRefresh) { LazyColumn {\n",  # noqa: E501
            )
            .replace("        }\n    }\n}\n", "        }\n    } }\n}\n"),
            **kotlin_dir,
        }
    )
    s.fine(
        "gradle/libs.versions.toml",
        "shared/build.gradle.kts",
        "shared/src/commonMain/sqldelight/dev/trailhead/db/Trail.sq",
        f"{_KMP_PKG}/TrailRepository.kt",
        f"{_KMP_PKG}/Platform.kt",  # expect createDriver()
        *platform_edits,  # the three actual drivers
        f"{_KMP_TEST}/TrailRepositoryTest.kt",  # the fallback test the intent asks for
        # Written by Gradle, but it moved for the web driver's npm packages.
        "kotlin-js-store/yarn.lock",
    )
    s.drift(
        f"{_KMP_TEST}/GeoMathTest.kt",
        "androidApp/src/main/kotlin/dev/trailhead/android/TrailListScreen.kt",
    )
    # Kotlin 2.0's project-level .kotlin/ (sessions, daemon error logs, metadata): the
    # 1.9-era .gitignore does not know it.
    s.excluded(*kotlin_dir)
    s.safe_checkpoint(before)
    s.note = (
        "checkpoints before and mid; the first turn deleted GeoMathTest, so only the one "
        "before is clean; kotlin-js-store/yarn.lock moved for the web driver (in scope)"
    )


# -- 10. DVC data project: a non-ASCII station, pointers and dvc.lock -----------------------------

_DV_STATIONS = [
    "Bergen",
    "Bodø",
    "Hammerfest",
    "Kirkenes",
    "Kristiansand",
    "Molde",
    "Stavanger",
    "Tromsø",
    "Trondheim",
    "Ålesund",
]


def _dv_pointer(name: str) -> str:
    """A .dvc file as `dvc add` writes it."""
    return lines(
        "outs:",
        f"- md5: {_hex('raw' + name)}",
        f"  size: {400_000 + len(name) * 9_137}",
        "  hash: md5",
        f"  path: {name}",
    )


def _dv_lock(stations: int, salt: str) -> str:
    def out(path: str, seed: str, *, nfiles: int | None = None, size: int = 10_000) -> list[str]:
        md5 = _hex(seed + salt) + (".dir" if nfiles is not None else "")
        entry = [
            f"    - path: {path}",
            "      hash: md5",
            f"      md5: {md5}",
            f"      size: {size}",
        ]
        if nfiles is not None:
            entry.append(f"      nfiles: {nfiles}")
        return entry

    return lines(
        "schema: '2.0'",
        "stages:",
        "  prepare:",
        "    cmd: python src/prepare.py",
        "    deps:",
        *out("data/raw/stations", "stations", nfiles=stations, size=4_812_003 + stations * 401_233),
        *out("src/prepare.py", "prepare.py", size=2_311),
        "    params:",
        "      params.yaml:",
        "        prepare.min_coverage: 0.9",
        "    outs:",
        *out("data/processed", "processed", nfiles=2, size=9_100_442),
        "  featurize:",
        "    cmd: python src/featurize.py",
        "    deps:",
        *out("data/processed", "processed", nfiles=2, size=9_100_442),
        *out("src/featurize.py", "featurize.py", size=3_020),
        "    params:",
        "      params.yaml:",
        "        featurize.features:",
        "        - temp_c",
        "        - wind_ms",
        "        - pressure_hpa",
        "    outs:",
        *out("data/features", "features", nfiles=2, size=3_402_118),
        "  train:",
        "    cmd: python src/train.py",
        "    deps:",
        *out("data/features", "features", nfiles=2, size=3_402_118),
        *out("src/train.py", "train.py", size=1_904),
        "    outs:",
        *out("models/model.pkl", "model", size=2_204_931),
        "  evaluate:",
        "    cmd: python src/evaluate.py",
        "    outs:",
        *out("metrics/scores.json", "scores", size=92),
    )


_DV_PARAMS = lines(
    "prepare:",
    "  min_coverage: 0.9",
    "  start: 2010-01-01",
    "",
    "featurize:",
    "  features:",
    "  - temp_c",
    "  - wind_ms",
    "  - pressure_hpa",
    "  lags: [1, 3, 6, 24]",
    "",
    "train:",
    "  n_estimators: 400",
    "  max_depth: 8",
    "  seed: 20240101",
)

_DV_FEATURIZE_OLD = lines(
    '"""Lagged features per station from the cleaned hourly observations."""',
    "",
    "import pandas as pd",
    "import yaml",
    "",
    "",
    "def featurize(df: pd.DataFrame, features: list[str], lags: list[int]) -> pd.DataFrame:",
    "    out = df[['station', 'time', *features]].copy()",
    "    for f in features:",
    "        for lag in lags:",
    "            out[f'{f}_lag{lag}'] = out.groupby('station')[f].shift(lag)",
    "    return out.dropna()",
    "",
    "",
    "if __name__ == '__main__':",
    "    params = yaml.safe_load(open('params.yaml'))['featurize']",
    "    df = pd.read_parquet('data/processed/hourly.parquet')",
    "    featurize(df, params['features'], params['lags']).to_parquet('data/features/train.parquet')",  # noqa: E501
)

_DV_FEATURIZE_NEW = lines(
    '"""Lagged features per station from the cleaned hourly observations."""',
    "",
    "import numpy as np",
    "import pandas as pd",
    "import yaml",
    "",
    "",
    "def wind_chill(temp_c: pd.Series, wind_ms: pd.Series) -> pd.Series:",
    '    """JAG/TI wind chill (°C); defined for T <= 10 °C and wind > 1.34 m/s, else T."""',
    "    v = (wind_ms * 3.6) ** 0.16",
    "    wc = 13.12 + 0.6215 * temp_c - 11.37 * v + 0.3965 * temp_c * v",
    "    return pd.Series(np.where((temp_c <= 10) & (wind_ms > 1.34), wc, temp_c), index=temp_c.index)",  # noqa: E501
    "",
    "",
    "def featurize(df: pd.DataFrame, features: list[str], lags: list[int]) -> pd.DataFrame:",
    "    df = df.copy()",
    "    if 'wind_chill' in features:",
    "        df['wind_chill'] = wind_chill(df['temp_c'], df['wind_ms'])",
    "    out = df[['station', 'time', *features]].copy()",
    "    for f in features:",
    "        for lag in lags:",
    "            out[f'{f}_lag{lag}'] = out.groupby('station')[f].shift(lag)",
    "    return out.dropna()",
    "",
    "",
    "if __name__ == '__main__':",
    "    params = yaml.safe_load(open('params.yaml'))['featurize']",
    "    df = pd.read_parquet('data/processed/hourly.parquet')",
    "    featurize(df, params['features'], params['lags']).to_parquet('data/features/train.parquet')",  # noqa: E501
)

_DV_TRAIN = lines(
    "import pickle",
    "",
    "import pandas as pd",
    "import yaml",
    "from sklearn.ensemble import HistGradientBoostingRegressor",
    "",
    "params = yaml.safe_load(open('params.yaml'))['train']",
    "df = pd.read_parquet('data/features/train.parquet')",
    "X, y = df.drop(columns=['station', 'time', 'temp_c']), df['temp_c']",
    "model = HistGradientBoostingRegressor(",
    "    max_iter=params['n_estimators'], max_depth=params['max_depth'], random_state=params['seed']",  # noqa: E501
    ")",
    "model.fit(X, y)",
    "pickle.dump(model, open('models/model.pkl', 'wb'))",
)

_DV_CONFIG = lines(
    "[core]",
    "    remote = storage",
    "    autostage = true",
    "['remote \"storage\"']",
    "    url = s3://coastal-forecast-dvc/store",
    "    region = eu-north-1",
)

_DV_REQUIREMENTS = lines(
    "dvc[s3]==3.49.0",
    "numpy==1.26.4",
    "pandas==2.2.1",
    "pyarrow==15.0.2",
    "pyyaml==6.0.1",
    "scikit-learn==1.4.1.post1",
    "pytest==8.1.1",
)


def _dv_metrics(rmse: float) -> dict[str, str]:
    return {
        "metrics/scores.json": json.dumps(
            {"rmse": rmse, "mae": round(rmse * 0.74, 3), "r2": 0.912}, indent=4
        )
        + "\n",
        "plots/feature_importance.json": json.dumps(
            [
                {"feature": f, "importance": i}
                for f, i in (
                    ("temp_c_lag1", 0.61 if rmse > 1.1 else 0.55),
                    ("wind_ms_lag1", 0.12 if rmse > 1.1 else 0.07),
                    ("pressure_hpa_lag3", 0.09),
                    *([("wind_chill_lag1", 0.11)] if rmse < 1.1 else []),
                )
            ],
            indent=4,
        )
        + "\n",
        "plots/residuals.json": json.dumps(
            [{"hour": h, "residual": round(0.1 * h - rmse, 2)} for h in range(0, 24, 6)],
            indent=4,
        )
        + "\n",
    }


def _dvc_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".gitignore": lines("__pycache__/", ".venv/", "*.pyc", ".ipynb_checkpoints/"),
        ".dvcignore": lines(
            "# Add patterns of files dvc should ignore, which could improve",
            "# the performance. Learn more at",
            "# https://dvc.org/doc/user-guide/dvcignore",
        ),
        ".dvc/.gitignore": lines("/config.local", "/tmp", "/cache"),  # noqa: S108
        ".dvc/config": _DV_CONFIG,
        "dvc.yaml": lines(
            "stages:",
            "  prepare:",
            "    cmd: python src/prepare.py",
            "    deps: [data/raw/stations, src/prepare.py]",
            "    params: [prepare.min_coverage]",
            "    outs: [data/processed]",
            "  featurize:",
            "    cmd: python src/featurize.py",
            "    deps: [data/processed, src/featurize.py]",
            "    params: [featurize.features]",
            "    outs: [data/features]",
            "  train:",
            "    cmd: python src/train.py",
            "    deps: [data/features, src/train.py]",
            "    outs: [models/model.pkl]",
            "  evaluate:",
            "    cmd: python src/evaluate.py",
            "    metrics:",
            "    - metrics/scores.json:",
            "        cache: false",
            "    plots:",
            "    - plots/feature_importance.json:",
            "        cache: false",
            "    - plots/residuals.json:",
            "        cache: false",
        ),
        "dvc.lock": _dv_lock(len(_DV_STATIONS), ""),
        "params.yaml": _DV_PARAMS,
        "data/raw/stations/.gitignore": lines(*(f"/{n}.csv" for n in _DV_STATIONS)),
        "data/raw/era5_coastal_2010_2023.nc.dvc": _dv_pointer("era5_coastal_2010_2023.nc"),
        "data/processed/.gitignore": lines("/hourly.parquet", "/daily.parquet"),
        "data/features/.gitignore": lines("/train.parquet", "/test.parquet"),
        "models/.gitignore": lines("/model.pkl"),
        "src/__init__.py": "",
        "src/prepare.py": lines(
            '"""Clean the raw station CSVs into hourly parquet."""',
            "import pandas as pd",
            "import yaml",
            "from utils.io import read_station",
        ),
        "src/featurize.py": _DV_FEATURIZE_OLD,
        "src/train.py": _DV_TRAIN,
        "src/evaluate.py": lines(
            "import json, pickle",
            "import pandas as pd",
            "json.dump({'rmse': 0.0}, open('metrics/scores.json', 'w'), indent=4)",
        ),
        "src/utils/__init__.py": "",
        "src/utils/io.py": lines(
            "import pandas as pd",
            "",
            "def read_station(path: str) -> pd.DataFrame:",
            "    return pd.read_csv(path, parse_dates=['time'])",
        ),
        "src/utils/geo.py": lines(
            "import math",
            "",
            "EARTH_RADIUS_KM = 6378.1",
            "",
            "",
            "def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:",
            "    p1, p2 = math.radians(lat1), math.radians(lat2)",
            "    dp, dl = p2 - p1, math.radians(lon2 - lon1)",
            "    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2",
            "    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))",
        ),
        "src/utils/metno.py": lines(
            '"""Fetch observations from the MET Norway Frost API."""',
            "FROST_URL = 'https://frost.met.no/observations/v0.jsonld'",
        ),
        "tests/conftest.py": lines(
            "import sys, pathlib",
            "sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / 'src'))",
        ),
        "tests/test_prepare.py": lines("def test_placeholder():", "    assert True"),
        "tests/test_featurize.py": lines(
            "import pandas as pd",
            "from featurize import featurize",
            "",
            "",
            "def test_lags_per_station():",
            "    df = pd.DataFrame({'station': ['a'] * 3, 'time': range(3), 'temp_c': [1.0, 2.0, 3.0]})",  # noqa: E501
            "    out = featurize(df, ['temp_c'], [1])",
            "    assert out['temp_c_lag1'].tolist() == [1.0, 2.0]",
        ),
        "tests/test_geo.py": lines(
            "from utils.geo import haversine_km",
            "",
            "def test_bergen_tromso():",
            "    assert 1050 < haversine_km(60.39, 5.32, 69.65, 18.96) < 1200",
        ),
        "notebooks/exploration.ipynb": json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "markdown",
                        "metadata": {},
                        "source": ["# Coastal stations: first look"],
                    }
                ],
                "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            },
            indent=1,
        )
        + "\n",
        "notebooks/error-analysis.ipynb": json.dumps(
            {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1
        )
        + "\n",
        "requirements.txt": _DV_REQUIREMENTS,
        "pyproject.toml": lines("[tool.pytest.ini_options]", 'testpaths = ["tests"]'),
        "README.md": lines(
            "# coastal-forecast",
            "",
            "Next-hour temperature for Norwegian coastal stations.",
            "",
            "`dvc pull && dvc repro`; metrics in `metrics/scores.json`.",
        ),
        ".github/workflows/cml.yml": lines(
            "name: CML",
            "on: [pull_request]",
            "jobs:",
            "  train:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: iterative/setup-cml@v2",
            "      - run: pip install -r requirements.txt && dvc pull && dvc repro",
        ),
        **_dv_metrics(1.184),
    }
    for name in _DV_STATIONS:
        files[f"data/raw/stations/{name}.csv.dvc"] = _dv_pointer(f"{name}.csv")
    return files


def _dvc(s: Scene) -> None:
    s.commit("coastal-forecast: ten stations", _dvc_files(), days_ago=55)
    s.commit(
        "readme: frost api",
        {"README.md": _read(s, "README.md") + "\nRaw data comes from the MET Norway Frost API.\n"},
        days_ago=7,
    )
    s.intent(
        "Add the Vardø station to the raw data and a wind_chill feature to featurize (in "
        "params.yaml too), with a test; then re-run the pipeline",
        {"src/featurize.py": "the new feature", "params.yaml": "feature list"},
        hours_ago=2,
    )
    # The user's own fix before handing over: the mean Earth radius, not the equatorial one.
    _by_hand(
        s,
        {"src/utils/geo.py": _read(s, "src/utils/geo.py").replace("6378.1", "6371.0")},
    )
    station = "Vardø"
    stations = sorted([*_DV_STATIONS, station])
    s.agent(
        {
            # `dvc add data/raw/stations/Vardø.csv`: the pointer and the ignore entry.
            f"data/raw/stations/{station}.csv.dvc": _dv_pointer(f"{station}.csv"),
            "data/raw/stations/.gitignore": lines(*(f"/{n}.csv" for n in stations)),
            "src/featurize.py": _DV_FEATURIZE_NEW,
            "params.yaml": _DV_PARAMS.replace(
                "  - pressure_hpa\n", "  - pressure_hpa\n  - wind_chill\n"
            ),
            "tests/test_featurize.py": _read(s, "tests/test_featurize.py")
            + lines(
                "",
                "",
                "def test_wind_chill_only_when_cold_and_windy():",
                "    from featurize import wind_chill",
                "",
                "    wc = wind_chill(pd.Series([-10.0, 15.0]), pd.Series([10.0, 10.0]))",
                "    assert round(wc[0], 1) == -20.3",
                "    assert wc[1] == 15.0",
            ),
        }
    )
    mid = s.checkpoint("Vardø and wind chill, tests pass")
    metrics = _dv_metrics(1.097)
    s.agent(
        {
            # "Improved the RMSE while the pipeline ran": deeper trees, a new seed.
            "src/train.py": _DV_TRAIN.replace(
                "    max_iter=params['n_estimators'], max_depth=params['max_depth'], random_state=params['seed']\n",  # noqa: E501
                "    max_iter=params['n_estimators'] * 2, max_depth=12, learning_rate=0.05, random_state=7\n",  # noqa: E501
            ),
            # `dvc push` failed without S3 credentials: a local remote, made the default.
            ".dvc/config": _DV_CONFIG.replace("    remote = storage\n", "    remote = localstore\n")
            + lines("['remote \"localstore\"']", "    url = /tmp/dvc-store"),
            "requirements.txt": _DV_REQUIREMENTS.replace(
                "scikit-learn==1.4.1.post1", "scikit-learn==1.5.0"
            ),
            # `dvc repro`: the lock and the uncached metrics and plots.
            "dvc.lock": _dv_lock(len(stations), "repro"),
            **metrics,
        }
    )
    s.fine(
        f"data/raw/stations/{station}.csv.dvc",  # `dvc add` wrote it, but it is the new data
        # Written by `dvc add` alongside the pointer; it goes with it. Debatable: machine
        # written, yet it is the only record that the CSV must never enter git.
        "data/raw/stations/.gitignore",
        "src/featurize.py",
        "params.yaml",
        "tests/test_featurize.py",
        "src/utils/geo.py",  # the user's own edit
    )
    s.drift("src/train.py", ".dvc/config", "requirements.txt")
    # dvc.lock is DVC's record of the run (hashes of every dep and out), rewritten whole by
    # `dvc repro` — and it now also records the drifted train.py. Machine-made, like the
    # uncached metrics and plots.
    s.excluded("dvc.lock", *metrics)
    s.safe_checkpoint(mid)
    s.note = (
        "the user's own geo.py fix before a clean mid checkpoint (safe); a non-ASCII .dvc "
        "pointer in scope; dvc.lock, metrics and plots excluded"
    )


FRESH15: list[Scenario] = [
    Scenario(
        name="b15_quarto_week7_hierarchical",
        build=_quarto,
        held_out=False,
        about="Quarto course site: a hierarchical-models lecture replaces the deleted "
        "MCMC-diagnostics one (its material folded into week 6), a new exercise, data, "
        "schedule and sidebar; styler over R/theme.R, renv::update and a Quarto pre-release "
        "pin drift; tracked _freeze/ output excluded; the checkpoint before the work is safe",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_latex_related_work_tracked_aux",
        build=_latex,
        held_out=False,
        about="LaTeX paper on latexmk: related work rewritten and four BibTeX entries added; "
        "the user's own abstract edit; dropping the [review] option and a one-sentence-per-"
        "line rewrite of Experiments drift; .aux/.bbl/.fdb_latexmk/.synctex.gz/PDF tracked "
        "by mistake and rebuilt, excluded; no checkpoint",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_cdk_ts_orders_dlq",
        build=_cdk,
        held_out=False,
        about="AWS CDK in TypeScript: a dead-letter queue and DLQ alarm with tests, wiring "
        "and a runbook entry; a region default, looser API throttling/CORS and a CI bump "
        "drift; tsc's .js/.d.ts beside every source, cdk.out/ and cdk.context.json "
        "excluded; checkpoints before and mid — mid safe",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_docusaurus_move_k8s_guide",
        build=_docusaurus,
        held_out=False,
        about="Docusaurus docs: git mv of the Kubernetes guide into a Deployment category "
        "with chart 2.x edits, sidebar, redirect plugin (package.json and package-lock.json) "
        "and two link fixes; a Docker-page rewrite and brand colours drift; .docusaurus/ "
        "excluded; the only checkpoint came after the drift — commit safe",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_godot_door_open_sound",
        build=_godot,
        held_out=False,
        about="Godot 4 game: doors open with a key and play 'door open.wav' (a spaced-name "
        "binary), a HUD hint, GameState helpers and a GUT test; player movement, the chest "
        "and the renderer in project.godot drift; the .import sidecar, a .uid and the "
        "unignored .godot/ excluded; checkpoints before, mid and after — mid safe",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_nextflow_empty_memory_fastp",
        build=_nextflow,
        held_out=False,
        about="Nextflow pipeline, empty memory: Trim Galore modules deleted and a fastp "
        "module wired in with config, environment, docs, changelog and a CI bump — all in "
        "scope; work/, .nextflow/, .nextflow.log* and results/ from two runs (none ignored) "
        "excluded; no checkpoint",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_yarn_pnp_turbo_date_picker",
        build=_yarn,
        held_out=False,
        about="Yarn 4 PnP zero-install monorepo with Turborepo: a DatePicker in @acme/ui, "
        "its export, test and use in the admin task form, with yarn.lock; an unasked `yarn "
        "set version` (.yarnrc.yml, packageManager) and a turbo.json migration drift; 38 "
        "cache zips, .pnp.*, the Yarn releases and per-package .turbo/ logs excluded; "
        "the checkpoint before the work is safe",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_espidf_stale_status_led",
        build=_espidf,
        held_out=False,
        about="ESP-IDF firmware, stale intent (OTA rollback, committed weeks ago): a WS2812 "
        "status LED with Kconfig options, the led_strip dependency and dependencies.lock in "
        "scope; clang-format of sensor.c, an IDF CI bump and a git mv without edits drift; "
        "sdkconfig, sdkconfig.old and managed_components/ excluded; commit safe",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_kmp_offline_trail_cache",
        build=_kmp,
        held_out=False,
        about="Kotlin Multiplatform: a SQLDelight offline cache (schema, repository, expect "
        "and three actual drivers, version catalog, build script, test) with "
        "kotlin-js-store/yarn.lock; a deleted GeoMath test and an Android list screen "
        "'improvement' drift; Kotlin 2.0's .kotlin/ excluded; the checkpoint before is safe",
        fresh=True,
        batch=15,
    ),
    Scenario(
        name="b15_dvc_vardo_wind_chill",
        build=_dvc,
        held_out=False,
        about="DVC project: a non-ASCII station pointer (Vardø.csv.dvc) with its .gitignore "
        "entry, a wind-chill feature, params and a test, and the user's own geo.py fix; "
        "retuned training, a local default remote and a scikit-learn bump drift; dvc.lock, "
        "metrics and plots excluded; mid checkpoint safe",
        fresh=True,
        batch=15,
    ),
]
