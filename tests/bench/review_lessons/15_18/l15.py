# Independent checks for lesson 15 (no meeple.rules.exact)
import math, random, sys
from fractions import Fraction as F
from scipy.stats import beta as B, binom
from statistics import NormalDist
def betacdf_exact(a,b,x):  # integer a,b: P(X<=x) = P(Bin(a+b-1,x) >= a)
    n=a+b-1; return sum(math.comb(n,j)*x**j*(1-x)**(n-j) for j in range(a,n+1))
def wilson(k,n,z=1.959963984540054):
    p=k/n; d=1+z*z/n; c=(p+z*z/(2*n))/d; h=z*math.sqrt(p*(1-p)/n+z*z/(4*n*n))/d; return c-h,c+h
k,n=15,40; t=F(3,10)
grid=[F(i,1000) for i in range(1001)]
w=[p**k*(1-p)**(n-k) for p in grid]; Z=sum(w)
gm=sum(p*x for p,x in zip(grid,w))/Z; gb=sum(x for p,x in zip(grid,w) if p<=t)/Z
print("grid mean",float(gm),"grid P<=.3",float(gb))
a,b=1+k,1+n-k; print("Beta",a,b,"mean",F(a,a+b),float(F(a,a+b)),"cdf",float(betacdf_exact(a,b,t)),"scipy",B.cdf(.3,a,b),"grid miss",abs(float(gb-betacdf_exact(a,b,t))))
for m,wins in [(10,3),(40,15),(160,50),(640,210)]:
    print(m,wins,"wilson %.3f %.3f"%wilson(wins,m),"cred %.3f %.3f"%(B.ppf(.025,1+wins,1+m-wins),B.ppf(.975,1+wins,1+m-wins)))
m=40; cov={x:(B.ppf(.025,1+x,1+m-x),B.ppf(.975,1+x,1+m-x)) for x in range(m+1)}
def cat(p): return sum(binom.pmf(x,m,p) for x in range(m+1) if cov[x][0]<=p<=cov[x][1])
print("prior-avg coverage",sum(cat((i+.5)/4000) for i in range(4000))/4000,"(exact 0.95 by construction)")
print("coverage at 210/640",cat(210/640))
rng=random.Random(99); h=0
for _ in range(4000):
    p=rng.random(); x=sum(rng.random()<p for _ in range(m)); h+=cov[x][0]<=p<=cov[x][1]
print("sampled coverage",h/4000,wilson(h,4000))
for name,(pa,pb) in {"flat":(1,1),"q":(5,15),"s":(12,18)}.items():
    print(name,[float(F(pa+wn,pa+pb+mm)) for mm,wn in [(0,0),(40,15),(640,210)]])
# one look at 640 games, p=0.3 exactly
most=640
ol=sum(math.comb(most,x)*t**x*(1-t)**(most-x) for x in range(most+1) if not (wilson(x,most)[0]<=.3<=wilson(x,most)[1]))
print("one look",float(ol))
rng=random.Random(2024); al=0; T=1000
for _ in range(T):
    wn=0
    for mm in range(1,most+1):
        wn+=rng.random()<.3
        if mm>=10 and not (wilson(wn,mm)[0]<=.3<=wilson(wn,mm)[1]): al+=1; break
print("peeking",al/T,wilson(al,T))
# exercise
a1,b1=2+9,6+15; pm=F(a1,a1+b1); ab=1-betacdf_exact(a1,b1,F(1,4)); flat=1-betacdf_exact(10,16,F(1,4))
print("ex1",pm,"ex2",ab,float(ab),"flat",float(flat))
from meeple.widgets.exercises import check
import meeple.widgets.exercises_15_18 as E; print(E.PARAMS["15"])
print("check1",check("15.posterior_mean",pm),"check2",check("15.above_fair",ab))
print("check2 float?",check("15.above_fair",float(ab)), "wrong",check("15.posterior_mean",F(1,3)))
