// The legal pages' starting text (issue 28, section 1): what a fresh site publishes until an admin edits it in place. It says
// what this product really stores and which cookies it really sets: the cookie names are those of server/auth/cookies.ts and
// server/auth/xsrf-token.ts (the `__Host-` forms over https), and a test holds this text to them
// (tests/server/features/legal-pages/legal-pages.test.ts). The imprint's bracketed parts are for the operator to fill in.
const NOW = '1970-01-01T00:00:00.000Z';

const PRIVACY = `This policy explains what this site stores about you, why, and how you can get it or have it deleted.

## What we store

- **Your account**: the details you gave when registering or later in your dashboard (name, surname, company, address, postcode, county, country, phone, VAT number, e-mail address), and when you verified the address. Your password is stored only as a one-way hash. If you turn on two-factor sign-in, its secret is stored encrypted and your recovery codes only as hashes.
- **Sessions**: for each place you are signed in, when it started and was last used, the network address (IP) and the browser's description (User-Agent). You see and can end them in your dashboard. A session ends when you log out, after its lifetime, or when you change your password.
- **Licenses**: your licenses, the machines they were activated on (the name and identifier your software reports), and a history of changes to them.
- **Download logs**: which release was downloaded, when, and by which account, so we know how many copies of each release went out. If you delete your account, these entries stay without any link to you.
- **Messages**: what you send through the contact form (your name, e-mail address, message and network address) and your license requests, with our replies and your answers. When you are signed in with the same verified address, you see them in your dashboard under "Support".
- **Mailings**: whether a newsletter was sent to you, and if you unsubscribed.
- **Security counters**: to slow down password guessing and spam, we count attempts per network address and account for a short time (minutes to a day).

We do not sell your data, show advertising, or use tracking or analytics services. E-mails are sent through our own mail server.

## Cookies

The site sets only the cookies it needs to work; none of them tracks you, and none comes from a third party:

| Cookie | What it is for | How long |
|---|---|---|
| \`session\` (\`__Host-session\` over https) | keeps you signed in; readable only by the server | until you close the browser (ended by the server after 2 hours unused), or 30 days with "Remember me" |
| \`signed_in\` | tells the pages that someone is signed in, so they ask for your account only then; holds no secret | as long as the session |
| \`XSRF-TOKEN\` | protects your forms against requests forged by other sites | 30 days |
| \`xsrf_visitor\` (\`__Host-xsrf_visitor\` over https) | ties that protection to your browser before you sign in | 30 days |
| \`two_factor\` (\`__Host-two_factor\` over https) | only while you sign in with two-factor: remembers the password step | 5 minutes |

## Your data: export and deletion

In your dashboard, under **Your data**:

- **Download my data** gives you everything we keep about you (your details, licenses, sessions, downloads, mailings and messages) as one file.
- **Delete my account** deletes your account with your details, sessions, licenses and the messages you sent from your verified address. You receive one last e-mail confirming it.

For anything else about your data, write to us through the [contact page](/contact).
`;

const TERMS = `These terms apply to the use of this site, your account and the software you download here.

## Your account

- Give true details and keep your password to yourself. You are responsible for what is done with your account.
- We may suspend an account that is misused (for example for spam or attacks on the site).
- You can delete your account at any time from your dashboard.

## Licenses and downloads

- Trial licenses are free and limited in time. A license may be used only on as many machines as it allows; you can deactivate a machine from your dashboard.
- The software is licensed, not sold. The license agreement shipped with it applies in addition to these terms.

## Content

The documentation, tutorials and news on this site are provided with care but without guarantee. They may change at any time.

## Privacy

How we handle your data is described in the [privacy policy](/privacy).

## Contact

Questions about these terms: please use the [contact page](/contact).
`;

const IMPRINT = `**[Company name and legal form]**

[Street and number]
[Postcode and city]
[Country]

**Represented by:** [name of the managing director]

**Contact:** see the [contact page](/contact).

**Register:** [register court and number]

**VAT identification number:** [number]

**Responsible for the content:** [name and address]
`;

export const STARTING_TEXT = [
  { slug: 'privacy', title: 'Privacy Policy', body: PRIVACY, updated_at: NOW },
  { slug: 'terms', title: 'Terms of Use', body: TERMS, updated_at: NOW },
  { slug: 'imprint', title: 'Imprint', body: IMPRINT, updated_at: NOW },
] as const;
